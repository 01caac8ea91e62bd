import { defineResource, JsonApiError } from '@taproot/json-api';
import type { EventActor } from '@taproot/messaging';
import type { ResourceDefinition, Row } from '@taproot/resources';
import { AlertingError, AlertingErrorCode } from '../errors';

/** The reference's `alert_event.kind` (`note` first: the kind clients write); the lifecycle writes the others. */
export const ALERT_EVENT_KINDS = [
  'note',
  'informational',
  'notification',
  'action',
  'status_update',
  'recording',
  'alert_grouping',
  'alert_urgency',
  'alert_routing',
  'noise',
  'maintenance',
  'deferral',
] as const;

/** The reference's `alert_event.action` values Taproot writes today. */
export const ALERT_EVENT_ACTIONS = [
  'created',
  'updated',
  'added',
  'acknowledged',
  'resolved',
  'snoozed',
  'escalated',
  'triggered',
  'open',
  'deferred',
  'attached',
  'removed',
  // Written by paging (docs/paging.md).
  'paged',
  'escalation_policy_paged',
  'level_skipped',
  'emailed',
  'texted',
  'called',
  'notified',
] as const;
export type AlertEventAction = (typeof ALERT_EVENT_ACTIONS)[number];

/** `alert_event.page_reason` values (spec Events 5). */
export const PAGE_REASONS = ['manual_reassignment'] as const;

export const ALERT_EVENT_SOURCES = ['api', 'system'] as const;

/** The `source` of an event written for `actor`: a request's, or the system's own (an alert source sending). */
export const eventSource = (actor: EventActor): (typeof ALERT_EVENT_SOURCES)[number] => (actor.kind === 'system' ? 'system' : 'api');

/** An alert's event (reference `alert_event`): its timeline, under `/v1/alerts/{alert_id}/events`, records at `/v1/alert_events/{id}`. */
export const alertEventSchema = defineResource({
  type: 'alert_events',
  singular: 'alert_event',
  path: '/v1/alert_events',
  parent: { path: '/v1/alerts', param: 'alert_id', attribute: 'alert_id', table: 'alerts', segment: 'events', flatList: true },
  readTable: 'alert_events_read',
  defaultSort: 'created_at',
  cursor: true,
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // The reference's updateAlertEvent is a PATCH (body update_alert_event).
  updateMethod: 'patch',
  attributes: {
    alert_id: { type: 'string', format: 'uuid', writable: false, filter: ['eq', 'in'], description: 'ID of the alert this event belongs to.' },
    kind: { type: 'string', enum: ALERT_EVENT_KINDS, required: true, writable: 'create', filter: ['eq', 'in'], description: 'note: written by a responder; otherwise written by the alert lifecycle' },
    action: { type: 'string', enum: ALERT_EVENT_ACTIONS, default: 'added', writable: false, filter: ['eq', 'in'], description: 'What happened' },
    details: { type: 'string', nullable: true, required: true, minLength: 1, maxLength: 10000, description: 'Note message.' },
    user_id: { type: 'integer', nullable: true, writable: false, description: 'ID of the user who wrote it or acted; null for a key without a user' },
    source: { type: 'string', enum: ALERT_EVENT_SOURCES, default: 'api', writable: false, description: 'Who wrote it: api (a request: a note, an operation, an attachment) or system (an alert source sending, the lifecycle on its own)' },
    // Filled by paging's events (docs/paging.md); null on the others.
    page_reason: { type: 'string', enum: PAGE_REASONS, nullable: true, writable: false, description: 'Why a paged event paged: manual_reassignment when an explicit ownership transfer paged (null otherwise)' },
    escalation_level: { type: 'integer', nullable: true, writable: false, description: 'The escalation level a paging event reached' },
    escalation_target_type: { type: 'string', nullable: true, writable: false, description: 'e.g. EscalationPolicy, User: what a paging event paged' },
  },
});

/** The rows the lifecycle writes: same table, events and projection, without the note-only rule. */
export const alertTrailDefinition: ResourceDefinition = {
  schema: alertEventSchema,
  context: 'alerting',
  table: 'alert_events',
  // Writing an alert's events changes the alert.
  permission: { family: 'alerts', writes: 'update' },
};

const notesOnly = (current: Row) => {
  if (current.kind !== 'note') throw new AlertingError(AlertingErrorCode.NotANote, `alert event ${String(current.id)} is written by the alert lifecycle; only notes can be changed or deleted`);
};

/**
 * `POST /v1/alerts/{alert_id}/events`: clients add notes (reference `new_alert_event.kind`:
 * `note`), and may edit or delete them at `/v1/alert_events/{id}`; the lifecycle's rows are read-only.
 */
export const alertEventDefinition: ResourceDefinition = {
  ...alertTrailDefinition,
  rules: {
    beforeUpdate(current, changes) {
      notesOnly(current);
      return changes;
    },
    beforeDelete: notesOnly,
    beforeCreate(attributes, ctx) {
      if (attributes.kind !== 'note') {
        throw JsonApiError.invalidAttributes([{ attribute: 'kind', detail: 'kind: only notes can be created; the other kinds are written by the alert lifecycle', code: AlertingErrorCode.InvalidValue }]);
      }
      return { ...attributes, action: 'added', user_id: ctx.userId ?? null };
    },
  },
};
