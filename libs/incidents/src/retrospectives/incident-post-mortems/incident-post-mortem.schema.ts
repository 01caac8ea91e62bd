import { existingCatalogIds } from '@taproot/catalog';
import { defineResource, filterOperatorsOf, type AttributeDef, type FilterOperator } from '@taproot/json-api';
import type { Reference, ResourceDefinition } from '@taproot/resources';
import { IncidentsErrorCode } from '../../errors';
import { incidentFilterAttributes, incidentFilterParameters, incidentStorageSchema, type IncidentFilterNames } from '../../incidents/incident.schema';

const RANGE: readonly FilterOperator[] = ['gt', 'gte', 'lt', 'lte'];
const show = (description: string): AttributeDef => ({ type: 'boolean', alwaysStored: true, description });
/** The incident's own timestamps: answered from the incident; a PUT may send them, they are ignored (spec). */
const incidentOwned = (description: string): AttributeDef => ({ type: 'date-time', nullable: true, writable: false, filter: RANGE, sortable: true, description });

export const POST_MORTEM_STATUSES = ['draft', 'published'] as const;

/**
 * The reference's filters on the post mortem's incident's related records, each one of incidents'
 * name and alias filters (parameter here: the incident filter it is), so each matches as it does on
 * `GET /v1/incidents`: `severity`, `type`, `types`, `environments`, `functionalities`,
 * `services`, `teams` and `causes` a slug or a name; `team_ids` and `type_ids` are the
 * incident's `group_ids` and `incident_type_ids`. `causes` is rewritten into `cause_ids`, which
 * here is the post mortem's own (docs/retrospectives.md, List).
 */
export const POST_MORTEM_INCIDENT_FILTERS = {
  severity: 'severity',
  type: 'types',
  types: 'types',
  type_ids: 'type_ids',
  environments: 'environments',
  functionalities: 'functionalities',
  services: 'services',
  teams: 'teams',
  team_ids: 'team_ids',
  causes: 'causes',
} as const satisfies IncidentFilterNames;

/** One of the incident's stored attributes, as a list filter on the view's column of the same name (its declaration on incidents). */
const incidentList = (name: string): AttributeDef => ({ ...incidentStorageSchema.attributes[name], column: name, writable: false });

/**
 * The list's filters on the incident's columns the view carries: the targets of the name and alias
 * filters (the reference's `service_ids`, `environment_ids`, `functionality_ids`; Taproot's
 * `severity_id`, `group_ids`, `incident_type_ids`, as on incidents), the reference's
 * `user_id` (the incident's creator, an integer as the reference types it), and whether the
 * incident is private (the name `hidePrivateIncidents` scopes a list across incidents by,
 * incident-children/incident-parent.ts).
 */
const INCIDENT_COLUMNS: Record<string, AttributeDef> = {
  user_id: { type: 'integer', column: 'incident_user_id', filter: ['eq', 'not_eq', 'in', 'not_in'], description: "Filter by the incident's creator (a user's ID)" },
  severity_id: incidentList('severity_id'),
  service_ids: incidentList('service_ids'),
  environment_ids: incidentList('environment_ids'),
  functionality_ids: incidentList('functionality_ids'),
  group_ids: incidentList('group_ids'),
  incident_type_ids: incidentList('incident_type_ids'),
  incident_private: { type: 'boolean', column: 'private', filter: ['eq'], description: 'Filter by whether the incident is private (callers who may not read private incidents never see theirs)' },
};

const CAUSE_IDS: AttributeDef = {
  type: 'array',
  items: { type: 'string', format: 'uuid' },
  nullable: true,
  filter: true,
  description: "The Cause IDs attached to the incident retrospective (causes of the organization; the post mortem's own, not its incident's)",
};

/**
 * The OpenAPI document lists no filter on an array attribute (json-api's openapi-document): the id
 * lists' filters are listed as extra filters, so the served document names every filter the list
 * takes. The parser takes them as the attributes they are.
 */
const idListParameters = (defs: Record<string, AttributeDef>): Record<string, { description: string }> =>
  Object.fromEntries(
    Object.entries(defs)
      .filter(([, def]) => def.type === 'array' && def.filter)
      .map(([name, def]) => [name, { description: `${def.description}: any of them, comma-separated; takes ${filterOperatorsOf(def).map((op) => `[${op}]`).join(', ')}` }]),
  );

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
    // The incident's title until one is written, so the incident's bounds: it may be empty, and up to 1000 characters.
    title: { type: 'string', alwaysStored: true, maxLength: 1000, sortable: true, searchable: true, description: "The title of the incident retrospective (the incident's until one is written)" },
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
    cause_ids: CAUSE_IDS,
  },
  listFilters: INCIDENT_COLUMNS,
  extraFilters: { ...incidentFilterParameters(POST_MORTEM_INCIDENT_FILTERS), ...idListParameters({ ...INCIDENT_COLUMNS, cause_ids: CAUSE_IDS }) },
});

/**
 * The list's query declaration: the served one with the name and alias filters (virtual), which
 * the list rewrites into conditions on the list filters' columns (`incidentFilterLookups`) before
 * the SQL; its rows are answered as `incidentPostMortemSchema`.
 */
export const incidentPostMortemListSchema = defineResource({
  ...incidentPostMortemSchema,
  attributes: { ...incidentPostMortemSchema.attributes, ...incidentFilterAttributes(POST_MORTEM_INCIDENT_FILTERS) },
  extraFilters: undefined,
});

export const incidentPostMortemDefinition: ResourceDefinition = {
  schema: incidentPostMortemSchema,
  context: 'incidents',
  table: 'incident_post_mortems',
  permission: { family: 'retrospective' },
};
