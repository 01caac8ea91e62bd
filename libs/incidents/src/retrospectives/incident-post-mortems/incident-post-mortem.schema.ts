import { existingCatalogIds } from '@taproot/catalog';
import { defineResource, type AttributeDef, type FilterOperator } from '@taproot/json-api';
import type { Reference, ResourceDefinition } from '@taproot/resources';
import { IncidentsErrorCode } from '../../errors';

const RANGE: readonly FilterOperator[] = ['gt', 'gte', 'lt', 'lte'];
const show = (description: string): AttributeDef => ({ type: 'boolean', alwaysStored: true, description });
/** The incident's own timestamps: answered from the incident; a PUT may send them, they are ignored (spec). */
const incidentOwned = (description: string): AttributeDef => ({ type: 'date-time', nullable: true, writable: false, filter: RANGE, sortable: true, description });

export const POST_MORTEM_STATUSES = ['draft', 'published'] as const;

export const CAUSES: Reference = { noun: 'cause', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingCatalogIds(db, org, 'causes', ids) };

/**
 * An incident's post mortem (reference: `incident_post_mortem`, docs/retrospectives.md): one per
 * incident, with the incident's id. Read from the view `incident_post_mortems_read` over the
 * incidents' read model; a PUT upserts what it writes into `incident_post_mortems`
 * (`UpdateIncidentPostMortemCommand`), so it has no read-model projection.
 */
export const incidentPostMortemSchema = defineResource({
  type: 'incident_post_mortems',
  singular: 'incident_post_mortem',
  path: '/v1/post_mortems',
  readTable: 'incident_post_mortems_read',
  defaultSort: 'created_at',
  operations: ['list', 'get', 'update'],
  // The reference's spellings.
  operationIds: { list: 'listIncidentPostMortems', get: 'ListIncidentPostmortem', update: 'updateIncidentPostmortem' },
  attributes: {
    // Beyond the reference: the hosted API answers it (its MCP server's list_incident_post_mortems reads it). The view's id.
    incident_id: { type: 'string', format: 'uuid', writable: false, column: 'id', description: "ID of the incident (the post mortem's own id: one per incident)" },
    title: { type: 'string', alwaysStored: true, minLength: 1, maxLength: 255, sortable: true, searchable: true, description: "The title of the incident retrospective (the incident's until one is written)" },
    status: { type: 'string', enum: POST_MORTEM_STATUSES, alwaysStored: true, filter: ['eq', 'not_eq', 'in', 'not_in'], description: 'The status of the incident retrospective' },
    content: { type: 'string', nullable: true, searchable: true, description: 'The content of the incident retrospective, stored as sent' },
    url: { type: 'string', writable: false, alwaysStored: true, description: "The url to the incident retrospective: the incident's url followed by /retrospective, or its API path" },
    started_at: incidentOwned("Date of started at (the incident's; ignored when sent)"),
    mitigated_at: incidentOwned("Date of mitigation (the incident's; ignored when sent)"),
    resolved_at: incidentOwned("Date of resolution (the incident's; ignored when sent)"),
    show_timeline: show('Show events timeline of the incident retrospective'),
    show_timeline_trail: show('Show trail events in the timeline of the incident retrospective'),
    show_timeline_genius: show('Show workflow events in the timeline of the incident retrospective'),
    show_timeline_tasks: show('Show tasks in the timeline of the incident retrospective'),
    show_timeline_action_items: show('Show action items in the timeline of the incident retrospective'),
    show_timeline_order: { type: 'string', enum: ['asc', 'desc'], alwaysStored: true, description: 'The order of the incident retrospective timeline' },
    show_services_impacted: show('Show services impacted of the incident retrospective'),
    show_functionalities_impacted: show('Show functionalities impacted of the incident retrospective'),
    show_groups_impacted: show('Show groups impacted of the incident retrospective'),
    show_alerts_attached: show('Show alerts attached to the incident'),
    show_action_items: show('Show action items (follow-ups) in the incident retrospective'),
    cause_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, nullable: true, description: 'The Cause IDs attached to the incident retrospective (causes of the organization)' },
  },
  listFilters: {
    service_ids: { type: 'array', items: { type: 'string' }, column: 'service_ids', filter: ['eq', 'in'], description: "Filter by the incident's service IDs (any of them)" },
    // The name hidePrivateIncidents scopes a list across incidents by (incident-children/incident-parent.ts).
    incident_private: { type: 'boolean', column: 'private', filter: ['eq'], description: 'Filter by whether the incident is private (callers who may not read private incidents never see theirs)' },
  },
});

export const incidentPostMortemDefinition: ResourceDefinition = {
  schema: incidentPostMortemSchema,
  context: 'incidents',
  table: 'incident_post_mortems',
  permission: { family: 'retrospective' },
};
