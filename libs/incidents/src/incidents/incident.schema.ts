import { defineResource, type AttributeDef, type FilterOperator } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { INCIDENT_KINDS, INCIDENT_LIFECYCLE, INCIDENT_STATUSES } from './incident.state';

const text = (description: string, more: Partial<AttributeDef> = {}): AttributeDef => ({ type: 'string', nullable: true, description, ...more });
const time = (description: string, more: Partial<AttributeDef> = {}): AttributeDef => ({ type: 'date-time', nullable: true, filter: true, description, ...more });
const ids = (description: string): AttributeDef => ({ type: 'array', items: { type: 'string' }, nullable: true, filter: true, description });
/** Who made a move: the acting user as `/v1/users` shows it, kept as it was then; null for a key without a user. */
const actedBy = (description: string): AttributeDef => ({ type: 'object', nullable: true, writable: false, description });

export const RETROSPECTIVE_PROGRESS_STATUSES = ['not_started', 'active', 'completed', 'skipped'] as const;
export const EVENT_VISIBILITIES = ['internal', 'external'] as const;

/**
 * What an incident stores: the write table `incidents`, its read model `incidents_read` and the
 * snapshot its events carry. The reference attributes clients write, plus what Taproot keeps
 * (`sequential_id`, `slug`, who moved it and when, subscribers, role assignments). The
 * integration fields only integrations fill (zoom_*, asana_*, ...) are not stored: they are all
 * nullable in the reference and come with the integrations.
 */
const STORED: Record<string, AttributeDef> = {
  sequential_id: { type: 'integer', writable: false, filter: true, description: 'Sequential ID of the incident, per organization (the 123 in INC-123)' },
  title: { type: 'string', nullable: true, maxLength: 1000, searchable: true, description: 'The title of the incident. Generated from the sequential id when null' },
  slug: { type: 'string', writable: false, derivedFrom: 'title', filter: true, description: 'The slug of the incident' },
  summary: text('The summary of the incident', { searchable: true }),
  public_title: text('The public title of the incident'),
  kind: { type: 'string', enum: INCIDENT_KINDS, nullable: true, default: 'normal', filter: ['eq', 'not_eq', 'in', 'not_in'], description: 'The kind of the incident' },
  status: { type: 'string', enum: INCIDENT_STATUSES, nullable: true, filter: ['eq', 'not_eq', 'in', 'not_in'], description: 'The status of the incident' },
  private: { type: 'boolean', nullable: true, default: false, filter: ['eq', 'not_eq', 'in', 'not_in'], description: 'Whether the incident is private. Once private, never public again' },
  source: text('The source of the incident', { writable: false }),
  url: text('The url to the incident', { writable: 'create' }),
  user_id: text('User ID of the creator of the incident. Defaults to the user of the API key', { writable: 'create', filter: ['eq', 'not_eq', 'in', 'not_in'] }),
  user: { ...actedBy('The user who created the incident'), column: 'creator' },
  severity_id: text('The Severity ID of the incident', { filter: ['eq', 'not_eq', 'in', 'not_in', 'null', 'not_null'] }),
  service_ids: ids('The Service IDs of the incident'),
  environment_ids: ids('The Environment IDs of the incident'),
  functionality_ids: ids('The Functionality IDs of the incident'),
  group_ids: ids('The Team IDs of the incident'),
  cause_ids: ids('The Cause IDs of the incident'),
  incident_type_ids: ids('The Incident Type IDs of the incident'),
  alert_ids: ids('The Alert IDs attached to the incident (alerts of the organization; docs/alerts.md, Alerts on incidents)'),
  muted_service_ids: ids('The Service IDs whose alerts do not page responders during the maintenance'),
  labels: { type: 'object', nullable: true, description: 'Labels of the incident, e.g. {"platform":"osx","version":"1.29"}' },
  notify_emails: { type: 'array', items: { type: 'string' }, nullable: true, writable: 'create', description: 'Emails to notify' },
  parent_incident_id: text('ID of the parent incident (a sub-incident)', { filter: ['eq', 'in', 'null', 'not_null'] }),
  duplicate_incident_id: text('ID of the incident this one duplicates', { filter: ['eq', 'in', 'null', 'not_null'] }),
  in_triage_at: time('Date of triage', { sortable: true }),
  started_at: time('Date of start', { sortable: true }),
  detected_at: time('Date of detection'),
  acknowledged_at: time('Date of acknowledgment'),
  mitigated_at: time('Date of mitigation', { sortable: true }),
  resolved_at: time('Date of resolution', { sortable: true }),
  closed_at: time('Date of closure'),
  cancelled_at: time('Date of cancellation'),
  scheduled_for: time('Date of when the maintenance begins'),
  scheduled_until: time('Date of when the maintenance ends'),
  in_triage_by: actedBy('The user who triaged the incident'),
  started_by: actedBy('The user who started the incident'),
  mitigated_by: actedBy('The user who mitigated the incident'),
  resolved_by: actedBy('The user who resolved the incident'),
  closed_by: actedBy('The user who closed the incident'),
  cancelled_by: actedBy('The user who cancelled the incident'),
  mitigation_message: text('How was the incident mitigated?'),
  resolution_message: text('How was the incident resolved?'),
  cancellation_message: text('Why was the incident cancelled?'),
  // Written by the hosted API's MCP server (its updateIncident tool, for post-incident review automation), though the reference's update_incident omits it.
  retrospective_progress_status: text('The status of the retrospective progress', { enum: RETROSPECTIVE_PROGRESS_STATUSES }),
  slack_channel_id: text('Slack channel id', { filter: ['eq', 'in'] }),
  slack_channel_name: text('Slack channel name'),
  slack_channel_url: text('Slack channel url'),
  slack_channel_archived: { type: 'boolean', nullable: true, description: 'Whether the Slack channel is archived' },
  jira_issue_id: text('Jira issue ID'),
  jira_issue_key: text('Jira issue key'),
  jira_issue_url: text('Jira issue URL'),
  google_drive_parent_id: text('Google Drive parent folder ID'),
  google_drive_url: text('Google Drive URL'),
  zendesk_ticket_id: text('Zendesk ticket ID (filled by a Zendesk integration; none exists yet)', { writable: false, filter: ['eq', 'not_eq', 'in', 'not_in'] }),
  external_id: text('Key of the incident in the tool it was imported from (POST /v1/incidents/import); unique in the organization', { writable: false, filter: ['eq', 'in'] }),
  subscriber_ids: { type: 'array', items: { type: 'string' }, writable: false, description: 'IDs of the users subscribed to the incident (add_subscribers, remove_subscribers)' },
  role_assignments: {
    type: 'array',
    writable: false,
    items: { type: 'object', properties: { incident_role_id: { type: 'string' }, user_id: { type: 'string' } } },
    description: 'Incident roles held on this incident (assign_role_to_user, unassign_role_from_user)',
  },
};

/** The reference's embedded records, resolved from the ids when an incident is read (never stale). */
const related = (description: string, many: boolean): AttributeDef =>
  many ? { type: 'array', items: { type: 'object' }, nullable: true, writable: false, description } : { type: 'object', nullable: true, writable: false, description };
export const EMBEDDED = {
  severity: { from: 'severity_id', type: 'severities', attribute: related('The Severity of the incident', false) },
  services: { from: 'service_ids', type: 'services', attribute: related('The Services of the incident', true) },
  environments: { from: 'environment_ids', type: 'environments', attribute: related('The Environments of the incident', true) },
  functionalities: { from: 'functionality_ids', type: 'functionalities', attribute: related('The Functionalities of the incident', true) },
  groups: { from: 'group_ids', type: 'groups', attribute: related('The Teams of the incident', true) },
  incident_types: { from: 'incident_type_ids', type: 'incident_types', attribute: related('The Incident Types of the incident', true) },
} as const;

const RESOURCE = {
  type: 'incidents',
  singular: 'incident',
  path: '/v1/incidents',
  readTable: 'incidents_read',
  // Newest first: incidents are not in the spec's list of lists that became ascending.
  defaultSort: '-created_at',
  cursor: true,
  operations: ['list', 'create', 'get', 'update', 'delete'],
} as const;

/** The write table, read model and event snapshot (the generic writer and projection read it). */
export const incidentStorageSchema = defineResource({ ...RESOURCE, attributes: STORED });

/**
 * Filters the reference declares on related records' names and on labels: parsed like attributes,
 * then rewritten into conditions on the stored id lists (incident-filters.ts).
 */
const EQUALITY: readonly FilterOperator[] = ['eq', 'not_eq', 'in', 'not_in'];
const byName = (description: string): AttributeDef => ({ type: 'array', items: { type: 'string' }, virtual: true, filter: EQUALITY, description });
export const NAME_FILTERS = {
  severity: { target: 'severity_id', type: 'severities', by: ['name', 'slug'], attribute: byName('Severity slug or name') },
  services: { target: 'service_ids', type: 'services', by: ['name', 'slug'], attribute: byName('Service slug or name') },
  service_names: { target: 'service_ids', type: 'services', by: ['name'], attribute: byName('Service name') },
  environments: { target: 'environment_ids', type: 'environments', by: ['name', 'slug'], attribute: byName('Environment slug or name') },
  functionalities: { target: 'functionality_ids', type: 'functionalities', by: ['name', 'slug'], attribute: byName('Functionality slug or name') },
  functionality_names: { target: 'functionality_ids', type: 'functionalities', by: ['name'], attribute: byName('Functionality name') },
  teams: { target: 'group_ids', type: 'groups', by: ['name', 'slug'], attribute: byName('Team slug or name') },
  team_names: { target: 'group_ids', type: 'groups', by: ['name'], attribute: byName('Team name') },
  types: { target: 'incident_type_ids', type: 'incident_types', by: ['name', 'slug'], attribute: byName('Incident type slug or name') },
  cause: { target: 'cause_ids', type: 'causes', by: ['name', 'slug'], attribute: byName('Cause slug or name') },
  causes: { target: 'cause_ids', type: 'causes', by: ['name', 'slug'], attribute: byName('Cause slug or name') },
} as const;
/** The reference's other names of stored lists: same values, another parameter. */
export const ALIAS_FILTERS = {
  team_ids: { target: 'group_ids', attribute: byName('Team IDs') },
  type_ids: { target: 'incident_type_ids', attribute: byName('Incident type IDs') },
  labels: { target: 'label_pairs', attribute: byName('Labels as key:value, e.g. platform:osx') },
} as const;

/** One of the name and alias filters, by its name on incidents. */
export type IncidentFilter = keyof typeof NAME_FILTERS | keyof typeof ALIAS_FILTERS;
/**
 * The name and alias filters a list over incidents takes, each by its parameter there:
 * `{ parameter: the incident filter it is }`. Incidents take every one under its own name
 * (`INCIDENTS_OWN_FILTERS`); post mortems those the reference declares for theirs
 * (incident-post-mortem.schema.ts). The list's read model must have the filters' target columns.
 */
export type IncidentFilterNames = Readonly<Record<string, IncidentFilter>>;
const INCIDENT_FILTERS: Readonly<Record<IncidentFilter, { attribute: AttributeDef }>> = { ...NAME_FILTERS, ...ALIAS_FILTERS };
export const INCIDENTS_OWN_FILTERS: IncidentFilterNames = Object.fromEntries(Object.keys(INCIDENT_FILTERS).map((name) => [name, name as IncidentFilter]));

/** The list declaration's attributes of `names` (virtual: the reader rewrites them, incident-filters.ts). */
export const incidentFilterAttributes = (names: IncidentFilterNames): Record<string, AttributeDef> =>
  Object.fromEntries(Object.entries(names).map(([parameter, filter]) => [parameter, INCIDENT_FILTERS[filter].attribute]));

/** The served declaration's `extraFilters` of `names`: how the OpenAPI document lists them. */
export const incidentFilterParameters = (names: IncidentFilterNames): Record<string, { description: string }> =>
  Object.fromEntries(
    Object.entries(names).map(([parameter, filter]) => {
      const { description, filter: operators } = INCIDENT_FILTERS[filter].attribute;
      return [parameter, { description: `${description}; takes ${(operators as readonly FilterOperator[]).map((op) => `[${op}]`).join(', ')}` }];
    }),
  );

/**
 * `include` names the reference lists whose records do not exist in Taproot (no Slack): accepted,
 * nothing included (`absent`).
 */
const INCLUDE_NOT_YET = ['slack_messages'];

/** The served declaration: what `/v1/incidents` answers and accepts (OpenAPI, payload parsing). */
export const incidentSchema = defineResource({
  ...RESOURCE,
  attributes: { ...STORED, ...Object.fromEntries(Object.entries(EMBEDDED).map(([name, e]) => [name, e.attribute])) },
  relationships: {
    causes: { type: 'causes', many: true, idAttribute: 'cause_ids' },
    services: { type: 'services', many: true, idAttribute: 'service_ids' },
    environments: { type: 'environments', many: true, idAttribute: 'environment_ids' },
    functionalities: { type: 'functionalities', many: true, idAttribute: 'functionality_ids' },
    groups: { type: 'groups', many: true, idAttribute: 'group_ids' },
    incident_types: { type: 'incident_types', many: true, idAttribute: 'incident_type_ids' },
    subscribers: { type: 'users', many: true, idAttribute: 'subscriber_ids' },
    roles: { type: 'incident_role_assignments', many: true },
    events: { type: 'incident_events', many: true },
    action_items: { type: 'incident_action_items', many: true },
    sub_statuses: { type: 'incident_sub_statuses', many: true },
    feedbacks: { type: 'incident_feedbacks', many: true },
    custom_field_selections: { type: 'incident_custom_field_selections', many: true },
    // Every incident has one, with the incident's id (docs/retrospectives.md): linked on every read
    // without a query, from the id the reader's stored rows carry (incident-reader.ts).
    incident_post_mortem: { type: 'incident_post_mortems', many: false, idAttribute: 'id', linked: true },
    alerts: { type: 'alerts', many: true, idAttribute: 'alert_ids' },
    ...Object.fromEntries(INCLUDE_NOT_YET.map((name) => [name, { type: name, many: true, absent: true as const }])),
  },
  extraFilters: incidentFilterParameters(INCIDENTS_OWN_FILTERS),
});

/**
 * The list's query declaration: stored attributes, the name and alias filters (virtual), and the
 * read model's `label_pairs` (a generated column the labels filter is rewritten into).
 */
export const incidentListSchema = defineResource({
  ...RESOURCE,
  attributes: {
    ...STORED,
    // Writes take a uuid or a slug; the stored columns are uuids, so a filter value must be one.
    parent_incident_id: { ...STORED.parent_incident_id, format: 'uuid' },
    duplicate_incident_id: { ...STORED.duplicate_incident_id, format: 'uuid' },
    ...incidentFilterAttributes(INCIDENTS_OWN_FILTERS),
    label_pairs: { type: 'array', items: { type: 'string' }, writable: false },
    // The stored labels object, selected under another name (`labels` is the filter here).
    label_object: { type: 'object', writable: false, column: 'labels' },
  },
  relationships: incidentSchema.relationships,
});

/**
 * An item of `POST /v1/incidents/import` (docs/incidents.md, Bulk import): what a create takes,
 * plus the key of the incident in the tool it comes from. The kind is `backfilled`; the status
 * one of the incident lifecycle, `resolved` unless said (a backfill records what is over); and
 * `started_at` is required: every duration of a historical incident counts from it.
 */
export const incidentImportSchema = defineResource({
  ...RESOURCE,
  attributes: {
    ...STORED,
    kind: { type: 'string', enum: ['backfilled'], default: 'backfilled', description: 'The kind of an imported incident: backfilled' },
    status: { type: 'string', enum: Object.keys(INCIDENT_LIFECYCLE.stamps), default: 'resolved', description: 'The status of the incident; its own time (resolved_at for resolved, ...) is required' },
    started_at: { ...STORED.started_at, nullable: false, required: true, description: 'Date of start (required)' },
    external_id: {
      type: 'string',
      nullable: true,
      minLength: 1,
      maxLength: 255,
      description: 'Key of the incident in the tool it comes from, unique in the organization: an item whose key was imported before answers that incident and imports nothing',
    },
  },
});

export const incidentDefinition: ResourceDefinition = {
  schema: incidentStorageSchema,
  context: 'incidents',
  table: 'incidents',
};

/** Request bodies of the operations (reference: mitigate_incident, resolve_incident, ...). */
const opSchema = (attributes: Record<string, AttributeDef>) => defineResource({ ...RESOURCE, attributes });
const message = (name: 'mitigation_message' | 'resolution_message' | 'cancellation_message') => ({ [name]: STORED[name] });
export const OPERATION_BODIES = {
  mitigate: opSchema(message('mitigation_message')),
  resolve: opSchema(message('resolution_message')),
  cancel: opSchema(message('cancellation_message')),
  in_triage: opSchema({}),
  restart: opSchema({}),
  // The reference's body is resolve_incident: marking a duplicate resolves it. Taproot adds the
  // incident it duplicates, which the reference's operation cannot name otherwise.
  duplicate: opSchema({
    ...message('resolution_message'),
    duplicate_incident_id: { type: 'string', required: true, description: 'ID (uuid or slug) of the incident this one duplicates' },
  }),
  unmark_as_duplicate: opSchema({}),
  detach_from_parent: opSchema({}),
  add_subscribers: opSchema({
    user_ids: { type: 'array', items: { type: 'string' }, nullable: true, description: 'IDs of users to subscribe' },
    remove_users_with_no_private_incident_access: { type: 'boolean', nullable: true, default: false, description: 'Also unsubscribe the users who may not read private incidents' },
  }),
  remove_subscribers: opSchema({
    user_ids: { type: 'array', items: { type: 'string' }, nullable: true, description: 'IDs of users to unsubscribe' },
    remove_users_with_no_private_incident_access: { type: 'boolean', nullable: true, default: false, description: 'Also unsubscribe the users who may not read private incidents' },
  }),
  assign_role_to_user: opSchema({
    incident_role_id: { type: 'string', required: true, description: 'ID of the incident role' },
    user_id: { type: 'string', required: true, description: 'ID of the user' },
  }),
  unassign_role_from_user: opSchema({
    incident_role_id: { type: 'string', required: true, description: 'ID of the incident role' },
    user_id: { type: 'string', required: true, description: 'ID of the user' },
  }),
} as const;
export type IncidentOperationName = keyof typeof OPERATION_BODIES;
