import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { domainEvent, type DomainEvent } from '@taproot/messaging';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types';
import { webhookEventTypeOf, webhookPayload } from './webhook-events';

const ORG = '0b7e4d1c-2a3f-4e5d-8c9b-1a2b3c4d5e6f';
const event = (type: string, payload: Record<string, unknown> = {}, aggregateType = 'incidents'): DomainEvent =>
  domainEvent({ type, organizationId: ORG, aggregateType, aggregateId: 'a1', actor: { kind: 'api_key', id: 'k1' }, payload: { id: 'a1', ...payload }, occurredAt: new Date('2026-11-25T12:00:00Z') });
const typeOf = (type: string, payload?: Record<string, unknown>) => webhookEventTypeOf(event(type, payload));

describe('webhookEventTypeOf', () => {
  test('incident lifecycle events: incident.* for an incident, incident.scheduled.* for a maintenance (kind scheduled or scheduled_sub)', () => {
    for (const verb of ['created', 'updated', 'deleted']) {
      assert.equal(typeOf(`incident.${verb}`, { kind: 'normal' }), `incident.${verb}`);
      assert.equal(typeOf(`incident.${verb}`, { kind: null }), `incident.${verb}`);
      assert.equal(typeOf(`incident.${verb}`, { kind: 'backfilled' }), `incident.${verb}`);
      assert.equal(typeOf(`incident.${verb}`, { kind: 'scheduled' }), `incident.scheduled.${verb}`);
      assert.equal(typeOf(`incident.${verb}`, { kind: 'scheduled_sub' }), `incident.scheduled.${verb}`);
    }
  });

  test('status moves: in_triage, mitigated, resolved, cancelled as they are; a maintenance\'s in_progress and completed as incident.scheduled.*', () => {
    for (const status of ['in_triage', 'mitigated', 'resolved', 'cancelled']) assert.equal(typeOf(`incident.${status}`, { kind: 'normal' }), `incident.${status}`);
    assert.equal(typeOf('incident.cancelled', { kind: 'scheduled' }), 'incident.cancelled');
    assert.equal(typeOf('incident.in_progress', { kind: 'scheduled' }), 'incident.scheduled.in_progress');
    assert.equal(typeOf('incident.completed', { kind: 'scheduled_sub' }), 'incident.scheduled.completed');
    assert.equal(typeOf('incident.in_progress', { kind: 'normal' }), null);
  });

  test("timeline events, status page events, alerts, pulses' creation and audit logs as they are; everything else is not delivered", () => {
    for (const type of ['incident_status_page_event.created', 'incident_status_page_event.updated', 'incident_status_page_event.deleted']) assert.equal(typeOf(type), type);
    for (const type of ['incident_event.created', 'incident_event.updated', 'incident_event.deleted', 'alert.created', 'alert.updated', 'pulse.created', 'audit_log.created']) assert.equal(typeOf(type), type);
    for (const type of ['incident.started', 'incident.restarted', 'incident.closed', 'incident.subscribers_added', 'alert.snoozed', 'alert.acknowledged', 'alert_event.created', 'service.created', 'webhooks_endpoint.updated', 'incident_import.completed', 'pulse.updated']) {
      assert.equal(typeOf(type, { kind: 'normal' }), null, type);
    }
  });

  test('every type it answers is subscribable', () => {
    const answered = ['incident.created', 'incident.in_progress', 'incident.completed', 'incident.updated', 'incident.deleted'].flatMap((t) => [typeOf(t, { kind: 'scheduled' }), typeOf(t, { kind: 'normal' })]);
    for (const type of answered.filter((t) => t !== null)) assert.ok((WEBHOOK_EVENT_TYPES as readonly string[]).includes(type), type);
  });

  test('events a bulk import wrote are not delivered', () => {
    const imported = { ...event('incident.created', { kind: 'normal' }), metadata: { request_id: 'r1', ip_address: null, user_agent: null, session_id: null, import_id: 'i1' } };
    assert.equal(webhookEventTypeOf(imported), null);
  });
});

describe('webhookPayload', () => {
  test('the event (id, webhook type, issued_at, actor), the organization and the record as a JSON:API resource object', () => {
    const e = event('alert.updated', { summary: 'Disk full', alert_urgency_id: 'u2', previous_alert_urgency_id: 'u1' }, 'alerts');
    assert.deepEqual(JSON.parse(webhookPayload(e, 'alert.updated')), {
      event: { id: e.id, type: 'alert.updated', issued_at: '2026-11-25T12:00:00.000Z', actor: { kind: 'api_key', id: 'k1' } },
      organization: { id: ORG },
      data: { id: 'a1', type: 'alerts', attributes: { summary: 'Disk full', alert_urgency_id: 'u2', previous_alert_urgency_id: 'u1' } },
    });
  });
});
