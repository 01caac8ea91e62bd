import { lifecycleOf, MAINTENANCE_LIFECYCLE, type IncidentKind } from '@taproot/incidents';
import type { DomainEvent } from '@taproot/messaging';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../webhook-event-types';

/** Lifecycle events of an incident: `incident.scheduled.*` when the incident is a maintenance. */
const INCIDENT_LIFECYCLE = new Set(['incident.created', 'incident.updated', 'incident.deleted']);

/** Domain events delivered under their own name: the other subscribable types. */
const AS_IS = new Set<string>(WEBHOOK_EVENT_TYPES.filter((type) => !INCIDENT_LIFECYCLE.has(type) && !type.startsWith('incident.scheduled.')));

/** Moves only a maintenance makes: delivered as `incident.scheduled.*`, never under their own name. */
const MAINTENANCE_MOVES = new Set(['incident.in_progress', 'incident.completed']);

/** The domain event types that may be delivered (what the dispatcher reads more of: its consumer contract). */
export const DELIVERABLE_DOMAIN_EVENTS = new RegExp(`^(${[...AS_IS, ...INCIDENT_LIFECYCLE, ...MAINTENANCE_MOVES].map((t) => t.replace('.', '\\.')).join('|')})$`);

const isMaintenance = (event: DomainEvent) => lifecycleOf(event.payload.kind as IncidentKind) === MAINTENANCE_LIFECYCLE;

/**
 * The webhook event type a domain event is delivered as, or null when it is not delivered
 * (docs/webhook-delivery.md, "What is delivered"). One domain event maps to at most one type. An
 * event a bulk import wrote (`metadata.import_id`) is not delivered (docs/events.md, Bulk import).
 */
export function webhookEventTypeOf(event: DomainEvent): WebhookEventType | null {
  if (event.metadata?.import_id) return null;
  const { type } = event;
  if (AS_IS.has(type)) return type as WebhookEventType;
  const scheduled = `incident.scheduled.${type.slice('incident.'.length)}` as WebhookEventType;
  if (INCIDENT_LIFECYCLE.has(type)) return isMaintenance(event) ? scheduled : (type as WebhookEventType);
  if (MAINTENANCE_MOVES.has(type) && isMaintenance(event)) return scheduled;
  return null;
}

/**
 * The exact body of every attempt of a delivery (stored, sent unchanged on retries and
 * redelivery): the hosted API's `event` / `data` envelope, `data` a JSON:API resource object of the
 * record as the event's snapshot has it. `event.actor` is who caused the event (the creator, for
 * `*.created`). Events carry no secret (docs/events.md), so neither does the body.
 */
export function webhookPayload(event: DomainEvent, type: WebhookEventType): string {
  const { id: _id, ...attributes } = event.payload;
  return JSON.stringify({
    event: { id: event.id, type, issued_at: event.occurred_at, actor: event.actor },
    organization: { id: event.organization_id },
    data: { id: event.aggregate_id, type: event.aggregate_type, attributes },
  });
}
