import {
  isPermissionFamily,
  type PermissionAction,
  type PermissionFamily,
  type PermissionFieldCatalog,
  familyOfField,
} from './permission-model';

/**
 * What a caller may do: per family, the actions granted. `unrestricted` grants every action on
 * every family, including ones no role field names (a global key with no role, the `all` scope).
 */
export interface PermissionSet {
  readonly unrestricted: boolean;
  readonly grants: ReadonlyMap<PermissionFamily, ReadonlySet<PermissionAction>>;
}

export const FULL_ACCESS: PermissionSet = Object.freeze({ unrestricted: true, grants: new Map() });
export const NO_ACCESS: PermissionSet = Object.freeze({ unrestricted: false, grants: new Map() });

export type GrantList = Partial<Record<PermissionFamily, Iterable<PermissionAction>>>;

export function permissionSet(grants: GrantList): PermissionSet {
  const map = new Map<PermissionFamily, Set<PermissionAction>>();
  for (const [family, actions] of Object.entries(grants) as [PermissionFamily, Iterable<PermissionAction>][]) {
    const set = new Set(actions);
    if (set.size > 0) map.set(family, set);
  }
  return { unrestricted: false, grants: map };
}

export function can(set: PermissionSet, family: PermissionFamily, action: PermissionAction): boolean {
  return set.unrestricted || (set.grants.get(family)?.has(action) ?? false);
}

/** The actions granted on a family, in a stable order (for error details and tests). */
export function actionsOn(set: PermissionSet, family: PermissionFamily): PermissionAction[] | 'all' {
  if (set.unrestricted) return 'all';
  const order: PermissionAction[] = ['create', 'read', 'update', 'delete', 'send'];
  const granted = set.grants.get(family);
  return order.filter((a) => granted?.has(a));
}

/** Everything any of the sets grants. */
export function union(...sets: PermissionSet[]): PermissionSet {
  if (sets.some((s) => s.unrestricted)) return FULL_ACCESS;
  const map = new Map<PermissionFamily, Set<PermissionAction>>();
  for (const s of sets) {
    for (const [family, actions] of s.grants) {
      let into = map.get(family);
      if (!into) map.set(family, (into = new Set()));
      for (const a of actions) into.add(a);
    }
  }
  return { unrestricted: false, grants: map };
}

/** Only what both grant: never more than either side. */
export function intersect(a: PermissionSet, b: PermissionSet): PermissionSet {
  if (a.unrestricted) return b;
  if (b.unrestricted) return a;
  const map = new Map<PermissionFamily, Set<PermissionAction>>();
  for (const [family, actions] of a.grants) {
    const other = b.grants.get(family);
    if (!other) continue;
    const both = new Set([...actions].filter((x) => other.has(x)));
    if (both.size > 0) map.set(family, both);
  }
  return { unrestricted: false, grants: map };
}

/**
 * The grants of a role record's permission fields. Only the catalog's fields are read and, of
 * each, only its allowed values: whatever else a row holds grants nothing.
 */
export function permissionsOfFields(record: Record<string, unknown>, catalog: PermissionFieldCatalog): PermissionSet {
  const grants: GrantList = {};
  for (const [field, allowed] of Object.entries(catalog)) {
    const family = familyOfField(field);
    if (!isPermissionFamily(family)) continue;
    const values = record[field];
    if (!Array.isArray(values)) continue;
    grants[family] = values.filter((v): v is PermissionAction => typeof v === 'string' && allowed.includes(v as PermissionAction));
  }
  return permissionSet(grants);
}

/**
 * Whether `outer` grants everything `inner` does. Whoever hands out permissions (a key's
 * role, a user's role) should hold them: `covers(callerPermissions, granted)`.
 */
export function covers(outer: PermissionSet, inner: PermissionSet): boolean {
  if (outer.unrestricted) return true;
  if (inner.unrestricted) return false;
  for (const [family, actions] of inner.grants) {
    for (const action of actions) if (!can(outer, family, action)) return false;
  }
  return true;
}
