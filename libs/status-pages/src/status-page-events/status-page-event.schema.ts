import { incidentKind, incidentParentAccess, lifecycleOf, MAINTENANCE_LIFECYCLE, underIncident, type IncidentKind } from '@taproot/incidents';
import { defineResource, existingIds, JsonApiError, type AttributeDef } from '@taproot/json-api';
import { checkReferenced, type Reference, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { StatusPageEventError, StatusPageEventErrorCode } from './status-page-event-errors';

/**
 * The statuses of a status page event, by what it is about: an incident's (`normal`; `investigating`
 * when the event names none, spec States and transitions 1) or a scheduled maintenance's (no
 * default, spec States and transitions 2). Templates fill events of either kind.
 */
export const EVENT_STATUSES = {
  normal: ['investigating', 'identified', 'monitoring', 'resolved'],
  scheduled: ['scheduled', 'in_progress', 'completed'],
} as const;

/** Attributes the reference's requests may send as null: the default on create (false, now), no change on update. */
const NULL_MEANS_DEFAULT = ['notify_subscribers', 'should_tweet', 'started_at'] as const;
const flag = (description: string): AttributeDef => ({ type: 'boolean', nullable: true, alwaysStored: true, default: false, description });

/**
 * The updates posted to a status page about an incident or a scheduled maintenance (reference:
 * `incident_status_page_event`), created and listed under the incident, read and changed at
 * `/v1/status-page-events/{id}` (docs/status-pages.md, Status page events).
 */
export const statusPageEventSchema = defineResource({
  type: 'incident_status_page_events',
  singular: 'incident_status_page_event',
  path: '/v1/status-page-events',
  readTable: 'incident_status_page_events_read',
  // In the order they happened: a backdated update sorts where it belongs.
  defaultSort: 'started_at',
  cursor: true,
  operations: ['list', 'create', 'get', 'update', 'delete'],
  operationIds: { list: 'listIncidentStatusPages', create: 'createIncidentStatusPage', get: 'getIncidentStatusPages', update: 'updateIncidentStatusPage', delete: 'deleteIncidentStatusPage' },
  parent: underIncident('status-page-events'),
  attributes: {
    incident_id: { type: 'string', format: 'uuid', writable: 'create', description: 'ID of the incident (the path decides)' },
    event: { type: 'string', required: true, alwaysStored: true, minLength: 1, description: 'The summary of the incident event' },
    status: {
      type: 'string',
      enum: [...EVENT_STATUSES.normal, ...EVENT_STATUSES.scheduled],
      alwaysStored: true,
      filter: ['eq', 'in'],
      description: "The status of the incident event: an incident's investigating (the default), identified, monitoring, resolved; a scheduled maintenance's scheduled, in_progress, completed (required)",
    },
    status_page_id: { type: 'string', format: 'uuid', nullable: true, filter: ['eq', 'in'], description: 'Unique ID of the status page you wish to post the event to' },
    notify_subscribers: flag('Notify all status pages subscribers'),
    should_tweet: flag('For Statuspage.io integrated pages auto publishes a tweet for your update'),
    started_at: { type: 'date-time', nullable: true, alwaysStored: true, sortable: true, description: 'When the event started; defaults to the time of creation' },
  },
});

const STATUS_PAGES: Reference = { noun: 'status page', code: StatusPageEventErrorCode.UnknownStatusPage, existing: (db, org, ids) => existingIds(db, 'status_pages', org, ids) };

const isMaintenance = (kind: IncidentKind | null) => kind !== null && lifecycleOf(kind) === MAINTENANCE_LIFECYCLE;

/**
 * The status sent must be of the incident's family: a maintenance's three or an incident's four.
 * A maintenance's event must name one (the spec's 422); an incident's defaults to investigating.
 */
function checkStatus(status: unknown, maintenance: boolean, creating: boolean): string | undefined {
  const allowed: readonly string[] = EVENT_STATUSES[maintenance ? 'scheduled' : 'normal'];
  if (status === undefined) {
    if (!creating) return undefined;
    if (!maintenance) return 'investigating';
    throw new StatusPageEventError(StatusPageEventErrorCode.InvalidStatusForScheduled, `status is required on a scheduled maintenance: one of ${allowed.join(', ')}`, '/data/attributes/status');
  }
  if (allowed.includes(String(status))) return String(status);
  const detail = `status ${String(status)} is not a status of ${maintenance ? 'a scheduled maintenance' : 'an incident'}: one of ${allowed.join(', ')}`;
  if (maintenance) throw new StatusPageEventError(StatusPageEventErrorCode.InvalidStatusForScheduled, detail, '/data/attributes/status');
  throw JsonApiError.invalidAttributes([{ attribute: 'status', detail, code: StatusPageEventErrorCode.InvalidStatusForIncident }]);
}

/** The event as it will be stored: status for the incident's kind, the page of the organization, the defaults where null. */
async function settled(sent: Row, incidentId: string, ctx: WriteContext, creating: boolean): Promise<Row> {
  const changes: Row = { ...sent };
  const status = checkStatus(changes.status, isMaintenance(await incidentKind(ctx.manager, ctx.organizationId, incidentId)), creating);
  if (status !== undefined) changes.status = status;
  const defaults: Row = { notify_subscribers: false, should_tweet: false, started_at: ctx.now };
  for (const name of NULL_MEANS_DEFAULT) {
    if (changes[name] != null) continue;
    if (creating) changes[name] = defaults[name];
    else delete changes[name];
  }
  return checkReferenced(ctx, changes, { status_page_id: STATUS_PAGES });
}

export const statusPageEventDefinition: ResourceDefinition = {
  schema: statusPageEventSchema,
  context: 'status-pages',
  table: 'incident_status_page_events',
  // Part of the incident, as its action items: reading needs read on incidents, writing changes it (update).
  permission: { family: 'incidents', writes: 'update' },
  // Seen as the incident is: another organization's or a private one the caller may not read is a 404.
  parentAccess: incidentParentAccess,
  rules: {
    beforeCreate: (attributes, ctx) => settled(attributes, String(attributes.incident_id), ctx, true),
    beforeUpdate: (current, changes, ctx) => settled(changes, String(current.incident_id), ctx, false),
  },
};
