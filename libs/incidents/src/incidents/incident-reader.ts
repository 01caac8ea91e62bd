import { createHash } from 'node:crypto';
import { catalogIdsNamed, catalogRecords, type CatalogType } from '@taproot/catalog';
import { teamIdsNamed, teamRecords, userRecords } from '@taproot/identity';
import {
  JsonApiError,
  listDocument,
  parseListQuery,
  readRecords,
  rewriteVirtualFilters,
  toResourceObject,
  type CollectionDocument,
  type FlatQuery,
  type ListFilter,
  type ListQuery,
  type Queryable,
  type ResourceObject,
  type ResourceSchema,
  type SingleDocument,
  type VirtualFilter,
} from '@taproot/json-api';
import type { Row } from '@taproot/resources';
import { incidentRoleSchema } from '../incident-roles/incident-role.schema';
import { actionItemSchema } from '../action-items/action-item.schema';
import { incidentSubStatusSchema } from '../incident-sub-statuses/incident-sub-status.schema';
import { incidentEventSchema } from '../timeline/incident-event.schema';
import { findIncident, seesPrivate, type IncidentAccess } from './incident-access';
import { presentIncidents } from './incident-presenter';
import { ALIAS_FILTERS, INCLUDE_NOT_YET, incidentListSchema, incidentSchema, incidentStorageSchema, NAME_FILTERS } from './incident.schema';

/**
 * The filters on related records' names and the alias filters, rewritten into conditions on the
 * stored id lists (`rewriteVirtualFilters`): names are looked up as ids in the organization.
 */
const VIRTUAL_FILTERS: Record<string, VirtualFilter> = {
  ...Object.fromEntries(
    Object.entries(NAME_FILTERS).map(([name, { target, type, by }]): [string, VirtualFilter] => [
      name,
      { target, named: (db, organizationId, values) => (type === 'groups' ? teamIdsNamed(db, organizationId, values, by) : catalogIdsNamed(db, organizationId, type, values, by)) },
    ]),
  ),
  ...Object.fromEntries(Object.entries(ALIAS_FILTERS).map(([name, { target }]) => [name, { target }])),
};

/** `include` of a single read: the same names as the list's, each once; an unknown one is a 400. */
function parseInclude(query: FlatQuery): string[] {
  const raw = query.include;
  if (raw === undefined) return [];
  const names = [...new Set((Array.isArray(raw) ? raw : [raw]).flatMap((r) => r.split(',')).map((s) => s.trim()).filter(Boolean))];
  const unknown = names.find((n) => !Object.hasOwn(incidentSchema.relationships ?? {}, n));
  if (unknown) throw JsonApiError.badParameter('include', `Unknown relationship '${unknown}' in include`);
  return names;
}

type Linkage = { type: string; id: string };

/** Records that live under an incident (`incident_id`), included in its timeline's or creation order. */
const CHILDREN: Record<string, { schema: ResourceSchema; order: string }> = {
  events: { schema: incidentEventSchema, order: 'occurred_at, created_at' },
  action_items: { schema: actionItemSchema, order: 'created_at' },
  sub_statuses: { schema: incidentSubStatusSchema, order: 'assigned_at, created_at' },
};

/**
 * The included records of `include` and each incident's linkage to them. Names of records Taproot
 * does not have yet (INCLUDE_NOT_YET) include nothing.
 */
async function included(db: Queryable, organizationId: string, rows: Row[], names: string[]): Promise<{ included: ResourceObject[]; links: Map<string, Record<string, { data: Linkage[] }>> }> {
  const records: ResourceObject[] = [];
  const links = new Map<string, Record<string, { data: Linkage[] }>>(rows.map((r) => [String(r.id), {}]));
  const link = (name: string, idsOf: (row: Row) => string[], found: Map<string, ResourceObject>) => {
    records.push(...found.values());
    for (const row of rows) {
      links.get(String(row.id))![name] = { data: idsOf(row).flatMap((id) => (found.has(id) ? [{ type: found.get(id)!.type, id }] : [])) };
    }
  };
  const all = (idsOf: (row: Row) => string[]) => [...new Set(rows.flatMap(idsOf))];
  for (const name of names) {
    if (INCLUDE_NOT_YET.includes(name)) continue;
    const children = CHILDREN[name];
    if (children) {
      const incidentIds = rows.map((r) => String(r.id));
      const found = (await db.query(
        `SELECT * FROM ${children.schema.readTable} WHERE organization_id = $1 AND incident_id = ANY($2::uuid[]) ORDER BY ${children.order}, id`,
        [organizationId, incidentIds],
      )) as Row[];
      const objects = new Map(found.map((c) => [String(c.id), toResourceObject(children.schema, c)]));
      link(name, (row) => found.filter((c) => String(c.incident_id) === String(row.id)).map((c) => String(c.id)), objects);
      continue;
    }
    if (name === 'roles') {
      link(name, (row) => assignmentsOf(row).map((a) => assignmentId(row, a)), await roleAssignments(db, organizationId, rows));
      continue;
    }
    const { idAttribute } = (incidentSchema.relationships as Record<string, { idAttribute: string }>)[name];
    const idsOf = (row: Row) => ((row[idAttribute] as string[] | null) ?? []).map(String);
    const ids = all(idsOf);
    const found =
      name === 'subscribers' ? await userRecords(db, organizationId, ids) : name === 'groups' ? await teamRecords(db, organizationId, ids) : await catalogRecords(db, organizationId, name as CatalogType, ids);
    link(name, idsOf, found);
  }
  const unique = [...new Map(records.map((r) => [`${r.type}:${r.id}`, r])).values()];
  return { included: unique, links };
}

interface Assignment {
  incident_role_id: string;
  user_id: string;
}

const assignmentsOf = (row: Row) => (row.role_assignments as Assignment[] | null) ?? [];

/** An assignment has no row of its own: its id is derived from the incident and the role, stably. */
function assignmentId(row: Row, assignment: Assignment): string {
  const hex = createHash('sha256').update(`${String(row.id)}:${assignment.incident_role_id}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * `include=roles`: the incidents' role assignments as `incident_role_assignments`, each with its
 * `incident_role` and `user` (the hosted API's shape: the records in attributes and linkage in
 * relationships).
 */
async function roleAssignments(db: Queryable, organizationId: string, rows: Row[]): Promise<Map<string, ResourceObject>> {
  const all = rows.flatMap((row) => assignmentsOf(row).map((a) => ({ row, a })));
  const roles = await readRecords(db, incidentRoleSchema, organizationId, [...new Set(all.map(({ a }) => a.incident_role_id))]);
  const users = await userRecords(db, organizationId, [...new Set(all.map(({ a }) => String(a.user_id)))]);
  const linkage = (record: ResourceObject | undefined) => ({ data: record ? { type: record.type, id: record.id } : null });
  return new Map(
    all.map(({ row, a }) => {
      const role = roles.get(a.incident_role_id);
      const user = users.get(String(a.user_id));
      const id = assignmentId(row, a);
      return [
        id,
        {
          type: 'incident_role_assignments',
          id,
          attributes: { incident_role: { data: role ?? null }, user: { data: user ?? null } },
          relationships: { incident: { data: { type: 'incidents', id: String(row.id) } }, incident_role: linkage(role), user: linkage(user) },
        },
      ];
    }),
  );
}

/** Presents read-model rows and adds what `include` asks for. */
async function documentData(db: Queryable, organizationId: string, rows: Row[], include: string[]): Promise<{ data: ResourceObject[]; included?: ResourceObject[] }> {
  const data = await presentIncidents(db, organizationId, rows);
  if (include.length === 0) return { data };
  const extra = await included(db, organizationId, rows, include);
  return { data: data.map((d) => ({ ...d, relationships: extra.links.get(d.id) })), included: extra.included };
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
    const include = parseInclude(query);
    const { id: found, attributes } = toResourceObject(incidentStorageSchema, await findIncident(this.db, 'incidents_read', access, id));
    const { data, included } = await documentData(this.db, access.organizationId, [{ id: found, ...attributes }], include);
    return { data: data[0], ...(included ? { included } : {}) };
  }

  async list(access: IncidentAccess, query: FlatQuery): Promise<CollectionDocument> {
    const { db, cursorSecret } = this;
    const parsed = parseListQuery(incidentListSchema, query, { cursorSecret });
    const hidden: ListFilter[] = seesPrivate(access) ? [] : [{ attribute: 'private', operator: 'eq', values: [false], parameter: 'private' }];
    const q: ListQuery = { ...parsed, filters: [...hidden, ...(await rewriteVirtualFilters(db, access.organizationId, parsed.filters, VIRTUAL_FILTERS))] };
    const document = await listDocument({ db, schema: incidentListSchema, serializeAs: incidentStorageSchema, q, query, organizationId: access.organizationId, cursorSecret });
    const rows = document.data.map((d) => ({ id: d.id, ...d.attributes }));
    const { data, included } = await documentData(db, access.organizationId, rows, parsed.include);
    return { ...document, data, ...(included ? { included } : {}) };
  }
}
