/**
 * Every event the contexts publish has a payload contract (registerEventContract) and keeps it:
 * the events a representative session writes to the outbox pass `parseDomainEvent`, the check
 * messages from Kafka go through before any consumer sees them.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hasEventContract, MalformedEventError, parseDomainEvent, type DomainEvent } from '@taproot/messaging';
import { eventually, startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { newAlertSource, postInbound, signedBy } from './support/alert-sources';
import { created } from './support/json-api';

describe('event contracts', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  const send = async (method: string, path: string, type: string, attributes: Record<string, unknown>) => {
    const res = await api.request(method, path, { token: org.token, body: { data: { type, attributes } } });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };

  test('the events of a session keep their contracts; a broken payload is refused', async () => {
    await send('POST', '/v1/services', 'services', { name: 'Checkout' });
    await send('POST', '/v1/severities', 'severities', { name: 'SEV1', severity: 'critical' });
    const team = created(await send('POST', '/v1/teams', 'groups', { name: 'Payments' }));
    await send('PUT', `/v1/teams/${team.id}`, 'groups', { description: 'Owns checkout' });
    await send('POST', '/v1/api_keys', 'api_keys', { name: 'CI', kind: 'organization', expires_at: new Date(Date.now() + 86_400_000).toISOString() });
    const incident = created(await send('POST', '/v1/incidents', 'incidents', { title: 'Checkout down' }));
    await send('POST', `/v1/incidents/${incident.id}/events`, 'incident_events', { event: 'Rolled back' });
    const alert = created(await send('POST', '/v1/alerts', 'alerts', { summary: 'disk full', source: 'api' }));
    await send('POST', `/v1/alerts/${alert.id}/escalate`, 'alerts', {});
    await send('POST', `/v1/alerts/${alert.id}/acknowledge`, 'alerts', {});
    await send('POST', `/v1/incidents/${incident.id}/alerts`, 'alerts', { alert_ids: [alert.id] });
    await send('PUT', `/v1/incidents/${incident.id}/resolve`, 'incidents', { resolution_message: 'fixed' });
    const source = await newAlertSource(api, org.token, {
      source_type: 'generic_webhook',
      sourceable_attributes: { field_mappings_attributes: [{ field: 'alert_title', json_path: '$.title' }] },
    });
    const raw = JSON.stringify({ title: 'cpu' });
    assert.equal((await postInbound(api, source.path, raw, signedBy(source.secret, raw))).status, 202);

    // The audit log follows the writes through the bus; its announcements are events too.
    await eventually(
      () => api.runtime.dataSource.query("SELECT count(*)::int AS n FROM outbox WHERE organization_id = $1 AND event->>'type' = 'audit_log.created'", [org.organizationId]),
      (rows: { n: number }[]) => rows[0].n > 10,
    );
    const events = ((await api.runtime.dataSource.query('SELECT event FROM outbox WHERE organization_id = $1 ORDER BY seq', [org.organizationId])) as { event: DomainEvent }[]).map((r) => r.event);
    const types = new Set(events.map((e) => e.type));
    for (const type of ['group.created', 'group.updated', 'api_key.created', 'audit_log.created', 'service.created', 'incident.created', 'incident.resolved', 'incident.alerts_attached', 'incident_event.created', 'alert.created', 'alert.escalated', 'alert.acknowledged', 'alert_event.created', 'alerts_source.created']) {
      assert.ok(types.has(type), `the session published ${type}`);
    }
    for (const event of events) {
      assert.doesNotThrow(() => parseDomainEvent(event), `${event.type} keeps its contract`);
      assert.ok(hasEventContract(event.type), `${event.type} has a contract`);
    }

    const resolved = events.find((e) => e.type === 'incident.resolved')!;
    assert.throws(
      () => parseDomainEvent({ ...resolved, payload: { ...resolved.payload, title: 42 } }),
      (error: unknown) => error instanceof MalformedEventError && /payload of incident\.resolved v1: title must be a string/.test(error.message),
    );
  });
});
