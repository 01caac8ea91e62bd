import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { EVENT_VISIBILITIES } from '../incidents/incident.schema';

/**
 * Where a timeline event comes from: `note` is written by a responder (`POST
 * /v1/incidents/{id}/events`) and may be edited or deleted; the others are the incident's own
 * trail, written by its operations (`import`: by the bulk import that created it), and are
 * read-only.
 */
export const TIMELINE_EVENT_KINDS = ['note', 'status_change', 'duplicate', 'parent', 'subscribers', 'role_assignment', 'import', 'alerts'] as const;
export type TimelineEventKind = (typeof TIMELINE_EVENT_KINDS)[number];

/** An incident's timeline event (reference: `incident_event`), records at `/v1/events/{id}`. */
export const incidentEventSchema = defineResource({
  type: 'incident_events',
  singular: 'incident_event',
  path: '/v1/events',
  parent: { path: '/v1/incidents', param: 'incident_id', attribute: 'incident_id', table: 'incidents', segment: 'events', onParentDelete: 'cascade' },
  readTable: 'incident_events_read',
  // A timeline reads in the order things happened.
  defaultSort: 'occurred_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    event: { type: 'string', required: true, minLength: 1, maxLength: 10000, searchable: true, description: 'The summary of the incident event' },
    visibility: { type: 'string', enum: EVENT_VISIBILITIES, default: 'internal', filter: true, description: 'Who may see the event: responders only (internal) or also status page readers (external)' },
    occurred_at: { type: 'date-time', writable: false, filter: true, sortable: true, description: 'Date of occurrence' },
    incident_id: { type: 'string', format: 'uuid', writable: false, filter: ['eq'], description: 'ID of the incident' },
    kind: { type: 'string', enum: TIMELINE_EVENT_KINDS, writable: false, filter: true, description: 'note: written by a responder; otherwise written by an incident operation or import (read-only)' },
    user_id: { type: 'string', nullable: true, writable: false, description: 'ID of the user who wrote it or acted; null for a key without a user' },
  },
});

export const incidentEventDefinition: ResourceDefinition = {
  schema: incidentEventSchema,
  context: 'incidents',
  table: 'incident_events',
};
