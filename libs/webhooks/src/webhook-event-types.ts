/**
 * The event types an outgoing webhook endpoint can subscribe to (`event_types`): the hosted API's
 * names (its `webhooks_endpoint.event_types` enum) for what Taproot emits, plus `alert.updated`
 * (spec Events 4). Published in docs/events.md ("Outgoing webhooks") and the OpenAPI document.
 * An endpoint with no event types receives every one of them.
 */
export const WEBHOOK_EVENT_TYPES = [
  'incident.created',
  'incident.updated',
  'incident.in_triage',
  'incident.mitigated',
  'incident.resolved',
  'incident.cancelled',
  'incident.deleted',
  'incident.scheduled.created',
  'incident.scheduled.updated',
  'incident.scheduled.in_progress',
  'incident.scheduled.completed',
  'incident.scheduled.deleted',
  'incident_event.created',
  'incident_event.updated',
  'incident_event.deleted',
  'incident_status_page_event.created',
  'incident_status_page_event.updated',
  'incident_status_page_event.deleted',
  'alert.created',
  'alert.updated',
  'pulse.created',
  'audit_log.created',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
