import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import {
  ON_CALL_ROLE_PERMISSION_FIELDS,
  ROLE_PERMISSION_FIELDS,
  type PermissionAction,
  type PermissionFieldCatalog,
} from '@taproot/auth';
import { editabilityOf } from './role-rules';

type Fields = Record<string, PermissionAction[]>;

interface SystemRole {
  kind: string;
  name: string;
  slug: string;
  fields: Fields;
}

/** Every allowed value of every field. */
function everything(catalog: PermissionFieldCatalog): Fields {
  return Object.fromEntries(Object.entries(catalog).map(([field, values]) => [field, [...values]]));
}

/** `read` on every field that has it, except the administrative families. */
function readOnly(catalog: PermissionFieldCatalog, except: readonly string[]): Fields {
  return Object.fromEntries(
    Object.entries(catalog).map(([field, values]) => [
      field,
      values.includes('read') && !except.includes(field.replace(/_permissions$/, '')) ? ['read'] : [],
    ]),
  );
}

/** Families only owners and admins see: keys, audit logs, billing, secrets, invitations. */
const ADMINISTRATIVE = ['api_keys', 'audits', 'billing', 'secrets', 'invitations'];

const irReadOnly = readOnly(ROLE_PERMISSION_FIELDS, ADMINISTRATIVE);
const ocReadOnly = readOnly(ON_CALL_ROLE_PERMISSION_FIELDS, ADMINISTRATIVE);

/**
 * The incident response roles of every organization. Owner and admin can do everything (an
 * admin only reads billing); a user reads everything but the administrative families and runs
 * incidents; an observer only reads; no_access grants nothing. Only `user` may be edited later.
 */
export const SYSTEM_ROLES: readonly SystemRole[] = [
  { kind: 'owner', name: 'Owner', slug: 'owner', fields: everything(ROLE_PERMISSION_FIELDS) },
  { kind: 'admin', name: 'Admin', slug: 'admin', fields: { ...everything(ROLE_PERMISSION_FIELDS), billing_permissions: ['read'] } },
  {
    kind: 'user',
    name: 'User',
    slug: 'user',
    fields: {
      ...irReadOnly,
      alerts_permissions: ['create', 'read'],
      incidents_permissions: ['create', 'read', 'update'],
      incident_feedbacks_permissions: ['create', 'read', 'update'],
      incident_communication_permissions: ['create', 'read', 'update', 'send'],
      paging_permissions: ['create', 'read'],
      pulses_permissions: ['create', 'read', 'update'],
      retrospective_permissions: ['create', 'read', 'update'],
    },
  },
  { kind: 'observer', name: 'Observer', slug: 'observer', fields: irReadOnly },
  { kind: 'no_access', name: 'No Access', slug: 'no-access', fields: {} },
];

/** The on-call roles of every organization (the reference's kinds have no owner). */
export const SYSTEM_ON_CALL_ROLES: readonly SystemRole[] = [
  { kind: 'admin', name: 'Admin', slug: 'admin', fields: everything(ON_CALL_ROLE_PERMISSION_FIELDS) },
  {
    kind: 'user',
    name: 'User',
    slug: 'user',
    fields: {
      ...ocReadOnly,
      alerts_permissions: ['create', 'update', 'read'],
      schedule_override_permissions: ['create', 'update'],
    },
  },
  { kind: 'observer', name: 'Observer', slug: 'observer', fields: ocReadOnly },
  { kind: 'no_access', name: 'No Access', slug: 'no-access', fields: {} },
];

/** A user's `role` (text, as bootstrap stores it) to the kinds of role it gets. */
export const USER_ROLE_KINDS: Record<string, { role: string; onCallRole: string }> = {
  owner: { role: 'owner', onCallRole: 'admin' },
  admin: { role: 'admin', onCallRole: 'admin' },
  user: { role: 'user', onCallRole: 'user' },
  observer: { role: 'observer', onCallRole: 'observer' },
  no_access: { role: 'no_access', onCallRole: 'no_access' },
};

export interface SeededRoles {
  /** Role id by kind. */
  roles: Record<string, string>;
  onCallRoles: Record<string, string>;
}

async function insertRoles(
  manager: EntityManager,
  organizationId: string,
  table: string,
  catalog: PermissionFieldCatalog,
  seeds: readonly SystemRole[],
  now: Date,
  fields: readonly string[] = Object.keys(catalog),
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const [index, seed] of seeds.entries()) {
    const id = randomUUID();
    ids[seed.kind] = id;
    // One millisecond apart: lists (sorted by created_at, then id) show them in this order.
    const at = new Date(now.getTime() + index);
    const row: Record<string, unknown> = {
      id,
      organization_id: organizationId,
      name: seed.name,
      slug: seed.slug,
      system_role: seed.kind,
      ...Object.fromEntries(fields.map((field) => [field, seed.fields[field] ?? []])),
      ...editabilityOf(seed.kind),
      created_at: at,
      updated_at: at,
    };
    const columns = Object.keys(row);
    await manager.query(
      `INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})`,
      Object.values(row),
    );
  }
  // The read model is written in the same transaction, so the organization's first request
  // already lists its roles.
  await manager.query(`INSERT INTO ${table}_read SELECT * FROM ${table} WHERE organization_id = $1 AND id = ANY($2::uuid[])`, [
    organizationId,
    Object.values(ids),
  ]);
  return ids;
}

export interface SeedOptions {
  now?: Date;
  /**
   * The permission columns to fill (default: every field of today's catalog). A migration passes
   * the columns that exist at its point in the history, so a field added by a later migration
   * does not break its backfill.
   */
  roleFields?: readonly string[];
  onCallRoleFields?: readonly string[];
}

/**
 * Seeds a new organization's system roles (incident response and on-call) in the caller's
 * transaction, and gives each user of the organization without roles the ones of their `role`
 * (the owner gets Owner and the on-call Admin). Call once per organization.
 *
 * Part of creating the organization, which (like its owner and bootstrap key) emits no domain
 * event: the write and read rows are written together here. Later changes go through the
 * generic path and emit `role.*` / `on_call_role.*` events as usual.
 */
export async function seedSystemRoles(manager: EntityManager, organizationId: string, options: SeedOptions = {}): Promise<SeededRoles> {
  const now = options.now ?? new Date();
  const roles = await insertRoles(manager, organizationId, 'roles', ROLE_PERMISSION_FIELDS, SYSTEM_ROLES, now, options.roleFields);
  const onCall = await insertRoles(manager, organizationId, 'on_call_roles', ON_CALL_ROLE_PERMISSION_FIELDS, SYSTEM_ON_CALL_ROLES, now, options.onCallRoleFields);
  for (const [userRole, kinds] of Object.entries(USER_ROLE_KINDS)) {
    await manager.query(
      `UPDATE users SET role_id = $1, on_call_role_id = $2
        WHERE organization_id = $3 AND role = $4 AND role_id IS NULL AND on_call_role_id IS NULL`,
      [roles[kinds.role], onCall[kinds.onCallRole], organizationId, userRole],
    );
  }
  return { roles, onCallRoles: onCall };
}
