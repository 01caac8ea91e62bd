import { createHash } from 'node:crypto';
import { alertRecordsSeenBy } from '@taproot/alerting';
import { can, type PermissionFamily } from '@taproot/auth';
import { catalogRecordsOf } from '@taproot/catalog';
import { teamRecords, userRecords } from '@taproot/identity';
import {
  byIdAttribute,
  byQuery,
  defineIncludes,
  listWithVirtualFilters,
  parseInclude,
  readRecords,
  toResourceObject,
  withIncludes,
  type CollectionDocument,
  type IncludeContext,
  type IncludeSource,
  type IncludeSources,
  type FlatQuery,
  type ListFilter,
  type Queryable,
  type RelationshipDef,
  type ResourceObject,
  type ResourceSchema,
  type SingleDocument,
} from '@taproot/json-api';
import type { Row } from '@taproot/resources';
import { incidentRoleSchema } from '../incident-roles/incident-role.schema';
import { actionItemSchema } from '../action-items/action-item.schema';
import { incidentFeedbackSchema } from '../feedbacks/incident-feedback.schema';
import { incidentCustomFieldSelectionDefinition } from '../forms/selections/incident-custom-field-selection.schema';
import { incidentPostMortemSchema } from '../retrospectives/incident-post-mortems/incident-post-mortem.schema';
import { incidentSubStatusSchema } from '../incident-sub-statuses/incident-sub-status.schema';
import { incidentEventSchema } from '../timeline/incident-event.schema';
import { findIncident, seesPrivate, type IncidentAccess } from './incident-access';
import { incidentsSeenWith } from './incidents-of-alerts';
import { presentIncidents } from './incident-presenter';
import { incidentFilterLookups } from './incident-filters';
import { incidentListSchema, incidentSchema, incidentStorageSchema, INCIDENTS_OWN_FILTERS } from './incident.schema';

/**
 * The filters on related records' names and the alias filters, rewritten into conditions on the
 * stored id lists (`rewriteVirtualFilters`): names are looked up as ids in the organization.
 */
const VIRTUAL_FILTERS = incidentFilterLookups(INCIDENTS_OWN_FILTERS);

/** Records that live under an incident (`incident_id`), included in its timeline's or creation order. */
const children = (schema: ResourceSchema, order: string): IncludeSource =>
  byQuery(schema, `SELECT incident_id AS owner_id, * FROM ${schema.readTable} WHERE organization_id = $1 AND incident_id = ANY($2::uuid[]) ORDER BY ${order}, id`);

/**
 * Where `include` on incidents finds its records, but the alerts (names of records Taproot has not
 * are declared absent): each is one query per page, never one per incident.
 */
const INCIDENT_INCLUDES: IncludeSources = {
  causes: byIdAttribute('cause_ids', catalogRecordsOf('causes')),
  services: byIdAttribute('service_ids', catalogRecordsOf('services')),
  environments: byIdAttribute('environment_ids', catalogRecordsOf('environments')),
  functionalities: byIdAttribute('functionality_ids', catalogRecordsOf('functionalities')),
  incident_types: byIdAttribute('incident_type_ids', catalogRecordsOf('incident_types')),
  groups: byIdAttribute('group_ids', teamRecords),
  subscribers: byIdAttribute('subscriber_ids', userRecords),
  roles: roleAssignments,
  events: children(incidentEventSchema, 'occurred_at, created_at'),
  action_items: children(actionItemSchema, 'created_at'),
  sub_statuses: children(incidentSubStatusSchema, 'assigned_at, created_at'),
  feedbacks: children(incidentFeedbackSchema, 'created_at'),
  custom_field_selections: children(incidentCustomFieldSelectionDefinition.schema, 'created_at'),
  // The post mortem shares the incident's id: its view, as GET /v1/post_mortems/{id} answers it.
  incident_post_mortem: byQuery(
    incidentPostMortemSchema,
    `SELECT id AS owner_id, * FROM ${incidentPostMortemSchema.readTable} WHERE organization_id = $1 AND id = ANY($2::uuid[])`,
  ),
};

/**
 * The sources for one caller: the attached alerts (the incident's `alert_ids`) through the alerting
 * context's port, as GET /v1/alerts/{id} answers them to this caller (their `incident_ids` keep
 * only the incidents it may see).
 */
const incidentIncludes = (db: Queryable, access: IncidentAccess): IncludeSources =>
  defineIncludes(incidentSchema, {
    ...INCIDENT_INCLUDES,
    alerts: byIdAttribute('alert_ids', alertRecordsSeenBy(access.principal, incidentsSeenWith(db, access))),
  });

/**
 * Relationships whose records another permission family guards than the incident's own: for a
 * caller who may not read that family they are absent (nothing read, nothing included, empty
 * linkage; the post mortem's is not answered either).
 */
const GUARDED: Readonly<Record<string, PermissionFamily>> = { feedbacks: 'incident_feedbacks', incident_post_mortem: 'retrospective', alerts: 'alerts' };

/** The incidents' declaration as `include` serves it to this caller (GUARDED). */
function schemaSeenBy(access: IncidentAccess): ResourceSchema {
  const relationships: Readonly<Record<string, RelationshipDef>> = incidentSchema.relationships;
  const hidden = Object.entries(GUARDED).filter(([, family]) => !can(access.permissions, family, 'read'));
  if (hidden.length === 0) return incidentSchema;
  const absent = ({ type, many }: RelationshipDef): RelationshipDef => ({ type, many, absent: true });
  return { ...incidentSchema, relationships: { ...relationships, ...Object.fromEntries(hidden.map(([name]) => [name, absent(relationships[name])])) } };
}

interface Assignment {
  incident_role_id: string;
  user_id: string;
}

const assignmentsOf = (row: Row) => (row.role_assignments as Assignment[] | null) ?? [];

/** An assignment has no row of its own: its id is derived from the incident and the role, stably. */
function assignmentId(incidentId: string, assignment: Assignment): string {
  const hex = createHash('sha256').update(`${incidentId}:${assignment.incident_role_id}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * `include=roles`: the incidents' role assignments as `incident_role_assignments`, each with its
 * `incident_role` and `user` (the hosted API's shape: the records in attributes and linkage in
 * relationships).
 */
async function roleAssignments({ db, organizationId }: IncludeContext, incidents: readonly ResourceObject[]): Promise<Map<string, ResourceObject[]>> {
  const all = incidents.flatMap((incident) => assignmentsOf(incident.attributes).map((a) => ({ incident, a })));
  const roles = await readRecords(db, incidentRoleSchema, organizationId, [...new Set(all.map(({ a }) => a.incident_role_id))]);
  const users = await userRecords(db, organizationId, [...new Set(all.map(({ a }) => String(a.user_id)))]);
  const linkage = (record: ResourceObject | undefined) => ({ data: record ? { type: record.type, id: record.id } : null });
  const found = new Map<string, ResourceObject[]>(incidents.map((i) => [i.id, []]));
  for (const { incident, a } of all) {
    const role = roles.get(a.incident_role_id);
    const user = users.get(String(a.user_id));
    found.get(incident.id)!.push({
      type: 'incident_role_assignments',
      id: assignmentId(incident.id, a),
      attributes: { incident_role: { data: role ?? null }, user: { data: user ?? null } },
      relationships: { incident: { data: { type: 'incidents', id: incident.id } }, incident_role: linkage(role), user: linkage(user) },
    });
  }
  return found;
}

/**
 * Presents read-model rows and adds what `include` asks for, and the linked post mortem asked or
 * not (the sources read the stored attributes; the rows carry their `id`, the post mortem's).
 */
async function documentData(db: Queryable, access: IncidentAccess, rows: Row[], include: string[]): Promise<{ data: ResourceObject[]; included?: ResourceObject[] }> {
  const { organizationId } = access;
  const data = await presentIncidents(db, organizationId, rows);
  const stored = rows.map((row) => ({ id: String(row.id), type: incidentSchema.type, attributes: row }));
  const extra = await withIncludes({ db, organizationId }, schemaSeenBy(access), incidentIncludes(db, access), stored, include);
  return { data: data.map((d, i) => ({ ...d, ...(extra.data[i].relationships ? { relationships: extra.data[i].relationships } : {}) })), ...(extra.included ? { included: extra.included } : {}) };
}

/**
 * Reads of `/v1/incidents` over `incidents_read`: private incidents only for callers who may read
 * them, the reference's name and label filters, page numbers and cursors, embedded records and
 * `include`.
 */
export class IncidentReader {
  constructor(
    private readonly db: Queryable,
    private readonly cursorSecret: string,
  ) {}

  async get(access: IncidentAccess, id: string, query: FlatQuery): Promise<SingleDocument> {
    const include = parseInclude(incidentSchema, query.include);
    const { id: found, attributes } = toResourceObject(incidentStorageSchema, await findIncident(this.db, 'incidents_read', access, id));
    const { data, included } = await documentData(this.db, access, [{ id: found, ...attributes }], include);
    return { data: data[0], ...(included ? { included } : {}) };
  }

  /**
   * An incident a write answers, with what its reads answer in `relationships` unasked (the post
   * mortem's linkage, from its id: no query).
   */
  async linked(access: IncidentAccess, incident: ResourceObject): Promise<ResourceObject> {
    const stored = { ...incident, attributes: { ...incident.attributes, id: incident.id } };
    const { data } = await withIncludes({ db: this.db, organizationId: access.organizationId }, schemaSeenBy(access), incidentIncludes(this.db, access), [stored], []);
    return data[0].relationships ? { ...incident, relationships: data[0].relationships } : incident;
  }

  async list(access: IncidentAccess, query: FlatQuery): Promise<CollectionDocument> {
    const { db, cursorSecret } = this;
    const hidden: ListFilter[] = seesPrivate(access) ? [] : [{ attribute: 'private', operator: 'eq', values: [false], parameter: 'private' }];
    const list = { db, schema: incidentListSchema, serializeAs: incidentStorageSchema, virtual: VIRTUAL_FILTERS, scope: hidden, cursorSecret };
    const { document, include } = await listWithVirtualFilters({ ...list, query, organizationId: access.organizationId });
    const rows = document.data.map((d) => ({ id: d.id, ...d.attributes }));
    const { data, included } = await documentData(db, access, rows, include);
    return { ...document, data, ...(included ? { included } : {}) };
  }
}
