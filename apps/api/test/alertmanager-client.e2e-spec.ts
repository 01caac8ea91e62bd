import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@taproot/persistence';
import { eventually, startTestApi, type TestApi, type TestOrganization } from '../src/testing';

/**
 * A real Prometheus Alertmanager (Debian's prometheus-alertmanager, installed by tools/test/run.ts
 * and passed as ALERTMANAGER_BIN) notifies an `alertmanager` alert source through a webhook
 * receiver: its own payloads, timings and resolution, not recorded fixtures.
 */
const BIN = process.env.ALERTMANAGER_BIN;
const PUBLIC_URL = 'https://taproot.example.test';
// Alertmanager waits group_wait then group_interval before it notifies: seconds, plus slow machines.
const DELIVERY_TIMEOUT_MS = 30_000;

interface TaprootAlert {
  id: string;
  attributes: Record<string, unknown>;
}

class Alertmanager {
  private readonly log: string[] = [];
  private constructor(
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly dir: string,
  ) {
    const keep = (chunk: Buffer) => {
      this.log.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      this.log.splice(0, Math.max(0, this.log.length - 40));
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  /** Starts the binary on a free loopback port with `config` (YAML), clustering off. */
  static async start(bin: string, config: string): Promise<Alertmanager> {
    const dir = mkdtempSync(join(tmpdir(), 'taproot-alertmanager-'));
    writeFileSync(join(dir, 'alertmanager.yml'), config);
    const url = `http://127.0.0.1:${await freePort()}`;
    const child = spawn(bin, [`--config.file=${join(dir, 'alertmanager.yml')}`, `--storage.path=${join(dir, 'data')}`, `--web.listen-address=${new URL(url).host}`, '--cluster.listen-address='], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const am = new Alertmanager(url, child, dir);
    let failure: string | undefined;
    child.once('error', (e) => (failure = `cannot run Alertmanager ${bin}: ${e.message}`));
    child.once('exit', (code) => (failure ??= `Alertmanager exited (${code}) before it was ready`));
    // A process that died stops the wait at once instead of after the timeout.
    await eventually(() => (failure ? Promise.resolve(true) : fetch(`${url}/-/ready`).then((r) => r.ok, () => false)), Boolean, 20_000);
    if (failure) {
      await am.stop();
      throw new Error(`${failure}\n${am.logTail()}`);
    }
    return am;
  }

  /** Posts alerts through Alertmanager's own API, as Prometheus does. */
  async post(alerts: unknown[]): Promise<void> {
    const res = await fetch(`${this.url}/api/v2/alerts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(alerts) });
    assert.equal(res.status, 200, await res.text());
  }

  async alerts(): Promise<{ fingerprint: string }[]> {
    return (await (await fetch(`${this.url}/api/v2/alerts`)).json()) as { fingerprint: string }[];
  }

  logTail(): string {
    return this.log.join('\n');
  }

  async stop(): Promise<void> {
    // No pid: the binary never ran, there is nothing to stop.
    if (this.child.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((r) => this.child.once('exit', r));
      this.child.kill('SIGTERM');
      const killer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

describe('a real Prometheus Alertmanager notifying an alertmanager alert source', () => {
  let api: TestApi;
  let org: TestOrganization;
  let am: Alertmanager | undefined;
  before(async () => {
    api = await startTestApi({ env: { PUBLIC_URL } });
    org = await api.newOrganization();
  });
  after(async () => {
    await am?.stop();
    await api?.close();
  });

  /** Alertmanager's log says why a notification did not arrive (a refused webhook, a bad URL). */
  const withLog = async <T>(wait: Promise<T>): Promise<T> =>
    wait.catch((e: Error) => {
      throw new Error(`${e.message}\nAlertmanager log:\n${am?.logTail()}`);
    });

  test('a fired alert opens a Taproot alert with its fingerprint; the resolution Alertmanager sends resolves it', async () => {
    assert.ok(BIN, 'ALERTMANAGER_BIN is not set: run through `npm test`, which installs Debian\'s prometheus-alertmanager (or set ALERTMANAGER_BIN to an Alertmanager binary)');

    const created = await api.request('POST', '/v1/alert_sources', { token: org.token, body: { data: { type: 'alert_sources', attributes: { name: 'Prometheus', source_type: 'alertmanager' } } } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const source = created.body.data;
    const endpoint = new URL(source.attributes.webhook_endpoint);
    assert.equal(endpoint.href, `${PUBLIC_URL}/v1/alert_sources/${source.id}/alerts`);
    // The harness listens on a random port, so PUBLIC_URL cannot name it: Alertmanager gets the
    // endpoint's path on the listening address (in production a proxy serves PUBLIC_URL). It
    // cannot sign, so the secret rides in the query.
    const receiverUrl = `${api.url}${endpoint.pathname}?secret=${source.attributes.secret}`;

    // resolve_timeout is long so the resolution checked below is the one posted, not a timeout.
    am = await Alertmanager.start(
      BIN,
      [
        'global:',
        '  resolve_timeout: 1h',
        'route:',
        '  receiver: taproot',
        '  group_by: [alertname]',
        '  group_wait: 1s',
        '  group_interval: 1s',
        '  repeat_interval: 1h',
        'receivers:',
        '  - name: taproot',
        '    webhook_configs:',
        `      - url: '${receiverUrl}'`,
        '        send_resolved: true',
        '',
      ].join('\n'),
    );

    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const alert = {
      labels: { alertname: 'PaymentsHighErrorRate', service: 'payments-api', severity: 'critical' },
      annotations: { summary: 'payments-api 5xx ratio above 5%', description: 'The 5xx ratio has been above 5% for 5 minutes.' },
      generatorURL: 'http://prometheus.example.test/graph?g0.expr=payments_5xx_ratio',
      startsAt,
    };
    await am.post([alert]);
    const [{ fingerprint }] = await am.alerts();

    const list = async () => (await api.request('GET', `/v1/alerts?filter[alert_source_id]=${source.id}`, { token: org.token })).body.data as TaprootAlert[];
    const [opened, ...others] = await withLog(eventually(list, (alerts) => alerts.length > 0, DELIVERY_TIMEOUT_MS));
    // One alert per Alertmanager alert.
    expect(others).toEqual([]);
    const a = opened.attributes;
    assert.equal(a.summary, alert.annotations.summary);
    assert.equal(a.description, alert.annotations.description);
    assert.equal(a.source, 'alertmanager');
    assert.equal(a.alert_source_id, source.id);
    assert.equal(a.status, 'open', 'no notification target: open (docs/alerts.md)');
    assert.equal(a.deduplication_key, fingerprint, "Alertmanager's fingerprint is the key");
    assert.equal(a.external_id, fingerprint);
    assert.equal(a.external_url, alert.generatorURL);
    assert.equal(new Date(a.started_at as string).getTime(), new Date(startsAt).getTime());
    assert.equal(a.ended_at, null, "a firing alert's zero endsAt is not an end");
    expect(a.labels).toEqual([
      { key: 'alertname', value: 'PaymentsHighErrorRate' },
      { key: 'service', value: 'payments-api' },
      { key: 'severity', value: 'critical' },
    ]);

    // The resolution, as Prometheus sends it: the same labels with an end in the past.
    const endsAt = new Date(Date.now() - 1000).toISOString();
    await am.post([{ ...alert, endsAt }]);
    const [resolved, ...more] = await withLog(eventually(list, (alerts) => alerts.some((x) => x.attributes.status === 'resolved'), DELIVERY_TIMEOUT_MS));
    // The resolution opens nothing new.
    expect(more).toEqual([]);
    assert.equal(resolved.id, opened.id);
    assert.equal(new Date(resolved.attributes.ended_at as string).getTime(), new Date(endsAt).getTime(), "the resolution keeps Alertmanager's endsAt");
  });
});
