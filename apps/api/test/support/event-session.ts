import assert from 'node:assert/strict';
import type { DomainEvent } from '@taproot/messaging';
import { eventually, type TestApi, type TestOrganization } from '../../src/testing';
import { newAlertSource, postInbound, signedBy } from './alert-sources';
import { created } from './json-api';

/** An event as the outbox holds it: the topic it is published on (its producer) and the event. */
export interface PublishedEvent {
  topic: string;
  event: DomainEvent;
}

/**
 * A representative session of every context (catalog, identity, incidents and pulses, alerting,
 * inbound alerts), through the api, then every event it published, the audit log's announcements
 * included: what the event and consumer contract tests check.
 */
export async function eventSession(api: TestApi, org: TestOrganization): Promise<PublishedEvent[]> {
  const send = async (method: string, path: string, type: string, attributes: Record<string, unknown>) => {
    const res = await api.request(method, path, { token: org.token, body: { data: { type, attributes } } });
    assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  const service = created(await send('POST', '/v1/services', 'services', { name: 'Checkout' }));
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
  const pulse = created(await send('POST', '/v1/pulses', 'pulses', { summary: 'Deployed checkout', service_ids: [service.attributes.slug], labels: [{ key: 'version', value: 'v2' }] }));
  await send('PUT', `/v1/pulses/${pulse.id}`, 'pulses', { ended_at: new Date(Date.now() + 60_000).toISOString() });
  const source = await newAlertSource(api, org.token, {
    source_type: 'generic_webhook',
    sourceable_attributes: { field_mappings_attributes: [{ field: 'alert_title', json_path: '$.title' }] },
  });
  const raw = JSON.stringify({ title: 'cpu' });
  assert.equal((await postInbound(api, source.path, raw, signedBy(source.secret, raw))).status, 202);
  const removed = await api.request('DELETE', `/v1/services/${service.id}`, { token: org.token });
  assert.ok(removed.status < 300, `DELETE /v1/services/${service.id}: ${removed.status}`);

  // The audit log follows the writes through the bus; its announcements are events too.
  await eventually(
    () => api.runtime.dataSource.query("SELECT count(*)::int AS n FROM outbox WHERE organization_id = $1 AND event->>'type' = 'audit_log.created'", [org.organizationId]),
    (rows: { n: number }[]) => rows[0].n > 10,
  );
  return api.runtime.dataSource.query('SELECT topic, event FROM outbox WHERE organization_id = $1 ORDER BY seq', [org.organizationId]);
}
