/**
 * Every event the contexts publish has a payload contract (registerEventContract) and keeps it:
 * the events a representative session writes to the outbox pass `parseDomainEvent`, the check
 * messages from Kafka go through before any consumer sees them.
 */
import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { hasEventContract, MalformedEventError, parseDomainEvent } from '@taproot/messaging';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { eventSession } from './support/event-session';

describe('event contracts', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  test('the events of a session keep their contracts; a broken payload is refused', async () => {
    const events = (await eventSession(api, org)).map((p) => p.event);
    const types = new Set(events.map((e) => e.type));
    for (const type of ['group.created', 'group.updated', 'api_key.created', 'audit_log.created', 'service.created', 'incident.created', 'incident.resolved', 'incident.alerts_attached', 'incident_event.created', 'service.deleted', 'alert.created', 'alert.escalated', 'alert.acknowledged', 'alert_event.created', 'alerts_source.created', 'pulse.created', 'pulse.updated']) {
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
