/**
 * The hosted API's own CLI (github.com/rootlyhq/cli v1.2.4, tools/cli), built from source and run
 * unchanged against Taproot as a user runs it: `rootly pulse` and `rootly pulse-run` POST
 * /v1/pulses to `--api-host` with `--api-key` (or the ROOTLY_* variables). Every run must exit as
 * the CLI's README says, and what it sent must be read back from GET /v1/pulses. tools/cli/README.md.
 */
import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization } from '../../apps/api/src/testing';
import { created, doc } from '../../apps/api/test/support/json-api';
import { installRootlyCli, runRootly, type CliRun } from './rootly-cli';

type Json = Record<string, any>;

const SHA = 'cd62148cbc5eb42168fe99fdb50a364e12b206ac';

describe("the hosted API's CLI (rootly pulse, rootly pulse-run) against Taproot", () => {
  let api: TestApi | undefined;
  let org: TestOrganization;
  let rootly: string;
  let service: Json;
  let environment: Json;

  /** The binary's run, with the run's output in the failure message. */
  async function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun & { shown: string }> {
    const result = await runRootly(rootly, args, env);
    return { ...result, shown: `rootly ${args.join(' ')} exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}` };
  }

  /** The pulses of the organization with this summary, as GET /v1/pulses answers them. */
  async function pulsesNamed(summary: string): Promise<Json[]> {
    const res = await api!.request('GET', '/v1/pulses', { token: org.token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data.filter((p: Json) => p.attributes.summary === summary);
  }

  async function onePulse(summary: string, shown: string): Promise<Json> {
    const found = await pulsesNamed(summary);
    assert.equal(found.length, 1, `one pulse "${summary}" after ${shown}`);
    return found[0].attributes;
  }

  /** The CLI sends the time it started and the time it sent the pulse. */
  function assertSpan(pulse: Json, from: number, to: number): void {
    const [started, ended] = [Date.parse(pulse.started_at), Date.parse(pulse.ended_at)];
    assert.ok(from - 1000 <= started && started <= ended && ended <= to + 1000, `started_at ${pulse.started_at}, ended_at ${pulse.ended_at} within the run`);
  }

  before(async () => {
    rootly = await installRootlyCli();
    api = await startTestApi();
    org = await api.newOrganization();
    const create = async (path: string, type: string, name: string) => created(await api!.request('POST', path, { token: org.token, body: doc(type, { name }) }));
    service = await create('/v1/services', 'services', 'Checkout API');
    environment = await create('/v1/environments', 'environments', 'Production');
  }, 900_000);

  after(async () => {
    await api?.close();
  });

  test('rootly pulse with flags: the pulse holds its summary, source, labels, refs, service and environment', async () => {
    const from = Date.now();
    const run = await cli([
      'pulse', '--api-key', org.token, '--api-host', api!.url,
      '--labels', 'version=2,attempt=1',
      '--services', service.attributes.slug,
      '--environments', environment.attributes.slug,
      '--refs', `sha=${SHA}`,
      '--source', 'k8s',
      'Deployed checkout v2',
    ]);
    assert.equal(run.code, 0, run.shown);
    assert.match(run.stdout + run.stderr, /Created a pulse/, run.shown);
    const pulse = await onePulse('Deployed checkout v2', run.shown);
    assert.equal(pulse.source, 'k8s');
    assert.deepEqual(pulse.labels, [{ key: 'version', value: '2' }, { key: 'attempt', value: '1' }]);
    assert.deepEqual(pulse.refs, [{ key: 'sha', value: SHA }]);
    assert.deepEqual(pulse.service_ids, [service.id]);
    assert.deepEqual(pulse.environment_ids, [environment.id]);
    assert.deepEqual(pulse.services.map((s: Json) => s.slug), [service.attributes.slug], 'the services the CLI reads back to check its slugs');
    assertSpan(pulse, from, Date.now());
  });

  test('rootly pulse configured by ROOTLY_* variables only, quiet', async () => {
    const run = await cli(['pulse'], {
      ROOTLY_API_KEY: org.token,
      ROOTLY_API_HOST: api!.url,
      ROOTLY_SUMMARY: 'Deployed checkout v3',
      ROOTLY_LABELS: 'version=3, Build Number=41',
      ROOTLY_SERVICES: service.attributes.slug,
      ROOTLY_ENVIRONMENTS: environment.attributes.slug,
      ROOTLY_SOURCE: 'github-actions',
      ROOTLY_REFS: `sha=${SHA}, image=registry.example.test/checkout:cd6214`,
      ROOTLY_QUIET: 'true',
    });
    assert.equal(run.code, 0, run.shown);
    assert.equal(run.stdout + run.stderr, '', `quiet prints nothing: ${run.shown}`);
    const pulse = await onePulse('Deployed checkout v3', run.shown);
    assert.equal(pulse.source, 'github-actions');
    // The CLI lower-cases keys and turns their spaces into underscores.
    assert.deepEqual(pulse.labels, [{ key: 'version', value: '3' }, { key: 'build_number', value: '41' }]);
    assert.deepEqual(pulse.refs, [{ key: 'sha', value: SHA }, { key: 'image', value: 'registry.example.test/checkout:cd6214' }]);
    assert.deepEqual(pulse.service_ids, [service.id]);
    assert.deepEqual(pulse.environment_ids, [environment.id]);
  });

  test("the README's bare pulse: source cli, nothing attached (the CLI sends null services, environments and data)", async () => {
    const run = await cli(['pulse', '--api-key', org.token, '--api-host', api!.url, '--quiet', 'Hello', 'there']);
    assert.equal(run.code, 0, run.shown);
    const pulse = await onePulse('Hello there', run.shown);
    assert.equal(pulse.source, 'cli');
    // The null the CLI sends is stored as null (an absent list defaults to []).
    assert.deepEqual([pulse.service_ids ?? [], pulse.environment_ids ?? [], pulse.services, pulse.environments], [[], [], [], []]);
    assert.ok(!pulse.labels?.length && !pulse.refs?.length, `no labels or refs: ${JSON.stringify(pulse)}`);
  });

  test('rootly pulse-run of a command that succeeds: its output passes through, the pulse is labelled exit_status 0', async () => {
    const from = Date.now();
    const run = await cli([
      'pulse-run', '--api-key', org.token, '--api-host', api!.url,
      '--summary', 'Deploy checkout',
      '--labels', 'version=2',
      '--services', service.attributes.slug,
      '--', 'sh', '-c', 'echo deploying checkout',
    ]);
    assert.equal(run.code, 0, run.shown);
    assert.match(run.stdout, /deploying checkout/, run.shown);
    const pulse = await onePulse('Deploy checkout', run.shown);
    assert.deepEqual(pulse.labels, [{ key: 'version', value: '2' }, { key: 'exit_status', value: '0' }]);
    assert.deepEqual(pulse.service_ids, [service.id]);
    assert.equal(pulse.source, 'cli');
    assertSpan(pulse, from, Date.now());
  });

  test('rootly pulse-run of a command that fails: the pulse, summarized by the command, carries its exit status; the CLI exits 0', async () => {
    const run = await cli(['pulse-run', '--api-key', org.token, '--api-host', api!.url, '--environments', environment.attributes.slug, '--', 'sh', '-c', 'exit 3']);
    // pulse_run.go reports the command's status in the pulse, not in its own: the pulse was sent.
    assert.equal(run.code, 0, run.shown);
    const pulse = await onePulse('sh -c exit 3', run.shown);
    assert.deepEqual(pulse.labels, [{ key: 'exit_status', value: '3' }]);
    assert.deepEqual(pulse.environment_ids, [environment.id]);
  });

  test("a wrong key: the CLI exits 1 printing Taproot's 401, and no pulse is made", async () => {
    const run = await cli(['pulse', '--api-key', 'tk_not_a_key_of_anyone_0123456789', '--api-host', api!.url, 'Not with that key']);
    assert.equal(run.code, 1, run.shown);
    const output = run.stdout + run.stderr;
    assert.match(output, /Failed to create pulse with exit code 401 Unauthorized/, run.shown);
    assert.match(output, /"errors"/, `the answer's error document is printed: ${run.shown}`);
    assert.deepEqual(await pulsesNamed('Not with that key'), []);
  });

  test('a service the organization lacks: the CLI exits 1 naming it, and no pulse is made', async () => {
    const run = await cli(['pulse', '--api-key', org.token, '--api-host', api!.url, '--services', 'no-such-service', 'Deployed nowhere']);
    assert.equal(run.code, 1, run.shown);
    assert.match(run.stdout + run.stderr, /no-such-service/, run.shown);
    assert.deepEqual(await pulsesNamed('Deployed nowhere'), []);
  });
});
