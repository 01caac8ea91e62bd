import type { Queryable } from '@taproot/json-api';
import { ScimError } from './scim-errors';
import { filterSql, type ScimAttributes } from './scim-filter';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

type Row = Record<string, unknown>;
export type ScimResource = Record<string, unknown> & { id: string };

/** One SCIM resource type over a Taproot table: its rows in one organization, filtered and paged. */
interface ScimTable {
  resourceType: 'User' | 'Group';
  endpoint: 'Users' | 'Groups';
  /** `SELECT ... FROM ... WHERE <organization is $1>`; conditions are ANDed after it. */
  select: string;
  /** The row's id as SCIM shows it (text). */
  id: string;
  order: string;
  attributes: ScimAttributes;
}

const META = (created: string, updated: string): ScimAttributes => ({
  'meta.created': { sql: created, type: 'dateTime' },
  'meta.lastmodified': { sql: updated, type: 'dateTime' },
});

/**
 * Users: the organization's people, not its OAuth applications' service users (an identity
 * provider neither made nor may remove them). userName and the one work e-mail are the user's
 * e-mail; everyone listed is active (an inactive user is a removed one: README, SCIM).
 */
const USERS: ScimTable = {
  resourceType: 'User',
  endpoint: 'Users',
  select: `SELECT u.id::text AS id, u.email, u.first_name, u.last_name, u.external_id, v.full_name, u.created_at, u.updated_at,
                  (SELECT COALESCE(jsonb_agg(jsonb_build_object('value', g.id, 'display', g.name) ORDER BY g.created_at, g.id), '[]')
                     FROM groups_read g WHERE g.organization_id = u.organization_id AND u.id = ANY(g.user_ids)) AS groups
             FROM users u JOIN users_view v ON v.id = u.id
            WHERE u.organization_id = $1 AND NOT EXISTS (SELECT 1 FROM oauth_applications a WHERE a.service_user_id = u.id)`,
  id: 'u.id::text',
  order: 'u.created_at, u.id',
  attributes: {
    id: { sql: 'u.id::text', type: 'string', caseExact: true },
    username: { sql: 'u.email', type: 'string' },
    externalid: { sql: 'u.external_id', type: 'string', caseExact: true },
    displayname: { sql: 'v.full_name', type: 'string' },
    'name.givenname': { sql: 'u.first_name', type: 'string' },
    'name.familyname': { sql: 'u.last_name', type: 'string' },
    'name.formatted': { sql: 'v.full_name', type: 'string' },
    'emails.value': { sql: 'u.email', type: 'string' },
    'emails.type': { sql: "'work'", type: 'string' },
    'emails.primary': { sql: 'true', type: 'boolean' },
    active: { sql: 'true', type: 'boolean' },
    ...META('u.created_at', 'u.updated_at'),
  },
};

/** Groups are Taproot's teams (`groups_read`); members are users (Taproot has no nested teams). */
const GROUPS: ScimTable = {
  resourceType: 'Group',
  endpoint: 'Groups',
  select: `SELECT g.id::text AS id, g.name, g.external_id, g.user_ids, g.admin_ids, g.created_at, g.updated_at,
                  (SELECT COALESCE(jsonb_agg(jsonb_build_object('value', v.id::text, 'display', COALESCE(v.full_name, v.email)) ORDER BY v.id), '[]')
                     FROM users_view v WHERE v.organization_id = g.organization_id AND v.id = ANY(g.user_ids)) AS members
             FROM groups_read g WHERE g.organization_id = $1`,
  id: 'g.id::text',
  order: 'g.created_at, g.id',
  attributes: {
    id: { sql: 'g.id::text', type: 'string', caseExact: true },
    displayname: { sql: 'g.name', type: 'string' },
    externalid: { sql: 'g.external_id', type: 'string', caseExact: true },
    ...META('g.created_at', 'g.updated_at'),
  },
};

export const SCIM_TABLES = { Users: USERS, Groups: GROUPS } as const;

const iso = (value: unknown) => new Date(value as string).toISOString();

function meta(table: ScimTable, row: Row, base: string) {
  return { resourceType: table.resourceType, created: iso(row.created_at), lastModified: iso(row.updated_at), location: `${base}/${table.endpoint}/${String(row.id)}` };
}

function userResource(row: Row, base: string): ScimResource {
  const id = String(row.id);
  return {
    schemas: [USER_SCHEMA],
    id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    userName: row.email,
    name: { givenName: row.first_name ?? undefined, familyName: row.last_name ?? undefined, formatted: row.full_name ?? undefined },
    displayName: row.full_name ?? row.email,
    emails: [{ value: row.email, type: 'work', primary: true }],
    active: true,
    groups: (row.groups as { value: string; display: string }[]).map((g) => ({ ...g, $ref: `${base}/Groups/${g.value}` })),
    meta: meta(USERS, row, base),
  };
}

function groupResource(row: Row, base: string): ScimResource {
  return {
    schemas: [GROUP_SCHEMA],
    id: String(row.id),
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    displayName: row.name,
    members: (row.members as { value: string; display: string }[]).map((m) => ({ ...m, type: 'User', $ref: `${base}/Users/${m.value}` })),
    meta: meta(GROUPS, row, base),
  };
}

const REPRESENT = { Users: userResource, Groups: groupResource };

/** Where a query reads, for one organization: the SCIM base URL its `meta.location`s start with. */
export interface ScimScope {
  db: Queryable;
  organizationId: string;
  base: string;
}

/** One resource, or a 404 (another organization's id is missing here too). */
export async function findScim(scope: ScimScope, endpoint: keyof typeof SCIM_TABLES, id: string): Promise<{ resource: ScimResource; row: Row }> {
  const table = SCIM_TABLES[endpoint];
  // The ids are integers (users) and uuids (teams): compared as text, anything else finds nothing.
  const [row] = (await scope.db.query(`${table.select} AND ${table.id} = $2`, [scope.organizationId, id])) as Row[];
  if (!row) throw ScimError.notFound(table.resourceType, id);
  return { resource: REPRESENT[endpoint](row, scope.base), row };
}

/** RFC 7644 §3.4.2.4: 1-based `startIndex` (below 1 reads as 1), `count` (negative reads as 0) capped at MAX_RESULTS. */
export const MAX_RESULTS = 200;

function pageNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^-?[0-9]{1,9}$/.test(value)) throw new ScimError(400, `${name} must be an integer, got ${JSON.stringify(value)}`, 'invalidValue');
  return Number(value);
}

/** A ListResponse of the organization's resources matching `filter`. */
export async function listScim(scope: ScimScope, endpoint: keyof typeof SCIM_TABLES, query: Record<string, string | undefined>) {
  const table = SCIM_TABLES[endpoint];
  const startIndex = Math.max(1, pageNumber('startIndex', query.startIndex, 1));
  const count = Math.min(MAX_RESULTS, Math.max(0, pageNumber('count', query.count, MAX_RESULTS)));
  const params: unknown[] = [scope.organizationId];
  const where = query.filter === undefined ? '' : ` AND (${filterSql(query.filter, table.attributes, params)})`;
  const [{ total }] = (await scope.db.query(`SELECT count(*)::int AS total FROM (${table.select}${where}) matched`, params)) as { total: number }[];
  const rows = count === 0 ? [] : ((await scope.db.query(`${table.select}${where} ORDER BY ${table.order} OFFSET ${startIndex - 1} LIMIT ${count}`, params)) as Row[]);
  return listResponse(total, startIndex, rows.map((row) => REPRESENT[endpoint](row, scope.base)));
}

/** RFC 7644 §3.4.2's ListResponse: `totalResults` is every match, `Resources` this page of them. */
export function listResponse(totalResults: number, startIndex: number, resources: Record<string, unknown>[]) {
  return { schemas: [LIST_SCHEMA], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}

const isObject = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);

function assertSchema(body: unknown, schema: string): Row {
  if (!isObject(body)) throw new ScimError(400, 'The body must be a SCIM resource (a JSON object)', 'invalidSyntax');
  if (!Array.isArray(body.schemas) || !body.schemas.includes(schema)) throw new ScimError(400, `schemas must include "${schema}"`, 'invalidSyntax');
  return body;
}

function optionalString(body: Row, name: string, path = name): string | null {
  const value = body[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw ScimError.invalidValue(`${path} must be a string, got ${JSON.stringify(value)}`);
  return value.trim() === '' ? null : value;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export interface UserInput {
  email: string;
  first_name: string | null;
  last_name: string | null;
  external_id: string | null;
  active: boolean;
}

/** A User as POST and PUT send it (and PATCH leaves it): Taproot keeps userName (an e-mail), the names, externalId and active. */
export function userInput(body: unknown): UserInput {
  const user = assertSchema(body, USER_SCHEMA);
  const userName = optionalString(user, 'userName');
  if (userName === null) throw ScimError.invalidValue('userName is required');
  // Taproot's users are people reached by e-mail: the userName is that address (Okta's and Azure AD's default).
  if (!EMAIL.test(userName)) throw ScimError.invalidValue(`userName must be an e-mail address, got ${JSON.stringify(userName)}`);
  const name = user.name === undefined || user.name === null ? {} : user.name;
  if (!isObject(name)) throw ScimError.invalidValue('name must be an object');
  // Azure AD sends "True" and "False" as strings in PATCH values.
  const active = typeof user.active === 'string' && /^(true|false)$/i.test(user.active) ? user.active.toLowerCase() === 'true' : (user.active ?? true);
  if (typeof active !== 'boolean') throw ScimError.invalidValue(`active must be a boolean, got ${JSON.stringify(active)}`);
  return {
    email: userName,
    first_name: optionalString(name, 'givenName', 'name.givenName'),
    last_name: optionalString(name, 'familyName', 'name.familyName'),
    external_id: optionalString(user, 'externalId'),
    active,
  };
}

export interface GroupInput {
  name: string;
  external_id: string | null;
  user_ids: number[];
}

/** A Group as POST and PUT send it (and PATCH leaves it): displayName, externalId, members (users' ids). */
export function groupInput(body: unknown): GroupInput {
  const group = assertSchema(body, GROUP_SCHEMA);
  const name = optionalString(group, 'displayName');
  if (name === null) throw ScimError.invalidValue('displayName is required');
  const members = group.members ?? [];
  if (!Array.isArray(members)) throw ScimError.invalidValue('members must be an array');
  const user_ids = members.map((member, i) => {
    const value = isObject(member) ? member.value : undefined;
    if (typeof value !== 'string' || !/^[0-9]{1,9}$/.test(value)) throw ScimError.invalidValue(`members[${i}].value must be the id of a User, got ${JSON.stringify(value)}`);
    return Number(value);
  });
  return { name, external_id: optionalString(group, 'externalId'), user_ids: [...new Set(user_ids)] };
}
