import { existingAlertIds } from '@taproot/alerting';
import { INCIDENT_EVENTS, type IncidentEventType } from '../events';
import { existingCatalogIds, type CatalogType } from '@taproot/catalog';
import { can, permissionsOf } from '@taproot/auth';
import { existingTeamIds, existingUserIds, userRecords } from '@taproot/identity';
import { isUuid, JsonApiError } from '@taproot/json-api';
import type { Row, WriteContext } from '@taproot/resources';
import type { TimelineEventKind } from '../timeline/incident-event.schema';
import { setAlerts } from './incident-alerts';
import { assertMayMakePrivate, seesPrivate, type IncidentAccess } from './incident-access';
import { lifecycleOf, transition, type IncidentKind, type IncidentOperation, type IncidentStatus, type LifecycleTimestamp } from './incident.state';
import { IncidentsError, IncidentsErrorCode } from '../errors';

/** Relationship ids of an incident and where each must exist. */
const REFERENCES: { attribute: string; type: CatalogType | 'groups' | 'alerts'; noun: string }[] = [
  { attribute: 'severity_id', type: 'severities', noun: 'a severity' },
  { attribute: 'service_ids', type: 'services', noun: 'a service' },
  { attribute: 'muted_service_ids', type: 'services', noun: 'a service' },
  { attribute: 'environment_ids', type: 'environments', noun: 'an environment' },
  { attribute: 'functionality_ids', type: 'functionalities', noun: 'a functionality' },
  { attribute: 'group_ids', type: 'groups', noun: 'a team' },
  { attribute: 'cause_ids', type: 'causes', noun: 'a cause' },
  { attribute: 'incident_type_ids', type: 'incident_types', noun: 'an incident type' },
  { attribute: 'alert_ids', type: 'alerts', noun: 'an alert' },
];

/** The ids of `ids` that are records of the organization, through each owning context's lookup. */
async function existingIds(ctx: WriteContext, type: (typeof REFERENCES)[number]['type'], ids: string[]): Promise<Set<string>> {
  if (type === 'alerts') return existingAlertIds(ctx.manager, ctx.organizationId, ids);
  return type === 'groups' ? existingTeamIds(ctx.manager, ctx.organizationId, ids) : existingCatalogIds(ctx.manager, ctx.organizationId, type, ids);
}

/** The user stamped beside each lifecycle timestamp (the reference has none for detected and acknowledged). */
const ACTED_BY: Partial<Record<LifecycleTimestamp, string>> = {
  in_triage_at: 'in_triage_by',
  started_at: 'started_by',
  mitigated_at: 'mitigated_by',
  resolved_at: 'resolved_by',
  closed_at: 'closed_by',
  cancelled_at: 'cancelled_by',
};

/** An outcome's message goes with its stamp: a restarted incident is no longer resolved "because ...". */
const OUTCOME_MESSAGES: Partial<Record<LifecycleTimestamp, string>> = {
  mitigated_at: 'mitigation_message',
  resolved_at: 'resolution_message',
  cancelled_at: 'cancellation_message',
};

/** Statuses an incident is done in: marking it a duplicate keeps them. */
const FINISHED: readonly IncidentStatus[] = ['resolved', 'closed', 'cancelled', 'completed'];

const invalid = (attribute: string, detail: string, code: string) => JsonApiError.invalidAttributes([{ attribute, detail, code }]);

/**
 * Every relationship id sent must be a record of the caller's organization: one 422 naming each
 * unknown id. Ids are stored lower-cased and once each.
 */
export async function checkReferences(ctx: WriteContext, attributes: Row): Promise<Row> {
  const checked = { ...attributes };
  const issues: { attribute: string; detail: string; code: string }[] = [];
  for (const { attribute, type, noun } of REFERENCES) {
    const value = checked[attribute];
    if (value === null || value === undefined) continue;
    const many = Array.isArray(value);
    const ids = [...new Set((many ? value : [value]).map((id) => String(id).toLowerCase()))];
    const found = await existingIds(ctx, type, ids);
    ids.forEach((id, i) => {
      if (found.has(id)) return;
      const at = many ? `${attribute}[${i}]` : attribute;
      issues.push({ attribute: many ? `${attribute}/${i}` : attribute, detail: `${at}: ${id} is not ${noun} of this organization`, code: IncidentsErrorCode.UnknownReference });
    });
    checked[attribute] = many ? ids : ids[0];
  }
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
  return checked;
}

/** `normal` <-> `normal_sub`: a kind's suffix follows whether the incident has a parent. */
export function kindFor(kind: IncidentKind, hasParent: boolean): IncidentKind {
  const base = kind.replace(/_sub$/, '');
  return (hasParent && base !== 'backfilled' ? `${base}_sub` : base) as IncidentKind;
}

/** `#12`, how the trail names another incident. */
export const label = (row: Row) => `#${String(row.sequential_id)} (${String(row.title)})`;

/** The acting user as `/v1/users` shows it, for `*_by` and the creator; null for a key without a user. */
export async function actingUser(ctx: WriteContext, userId: string | null): Promise<Row | null> {
  if (userId === null) return null;
  const user = (await userRecords(ctx.manager, ctx.organizationId, [userId])).get(userId);
  return user ? { data: user } : null;
}

/** The time stamps (and who) an incident holds in its first status, where the client gave none. */
export function initialStamps(kind: IncidentKind, status: IncidentStatus, attributes: Row, now: Date, by: Row | null): Row {
  const stamps: Row = {};
  for (const stamp of lifecycleOf(kind).stamps[status] ?? []) {
    if (attributes[stamp] != null) continue;
    stamps[stamp] = now;
    if (ACTED_BY[stamp]) stamps[ACTED_BY[stamp]] = by;
  }
  return stamps;
}

/** Refuses a status an incident of that kind cannot have, with the state machine's wording. */
export function assertStatusOfKind(kind: IncidentKind, status: IncidentStatus, attribute: 'status' | 'kind'): void {
  const lifecycle = lifecycleOf(kind);
  if (!lifecycle.stamps[status]) throw invalid(attribute, `An incident of kind ${kind} cannot have the status ${status}; ${lifecycle.otherwise}`, IncidentsErrorCode.InvalidStatus);
}

/**
 * An incident a relationship names (parent, duplicate), by uuid or slug, in the caller's
 * organization and visible to the caller: 422 naming the attribute otherwise (like any unknown
 * relationship id), and never the incident itself.
 */
export async function findRelated(ctx: WriteContext, access: IncidentAccess, attribute: string, id: string, self: string | null): Promise<Row> {
  const rows = (await ctx.manager.query(`SELECT * FROM incidents WHERE ${isUuid(id) ? 'id' : 'slug'} = $1 AND organization_id = $2`, [isUuid(id) ? id.toLowerCase() : id, ctx.organizationId])) as Row[];
  const row = rows[0];
  if (!row || (row.private === true && !seesPrivate(access))) throw invalid(attribute, `${attribute}: ${id} is not an incident of this organization`, IncidentsErrorCode.UnknownReference);
  if (self !== null && String(row.id) === self) throw invalid(attribute, `${attribute}: an incident cannot refer to itself`, IncidentsErrorCode.SelfReference);
  return row;
}

/** Whether following `column` from `start` reaches `target` (UNION stops on a cycle already stored). */
async function reaches(ctx: WriteContext, column: 'parent_incident_id' | 'duplicate_incident_id', start: string, target: string): Promise<boolean> {
  const rows = (await ctx.manager.query(
    `WITH RECURSIVE chain(id, next) AS (
       SELECT id, ${column} FROM incidents WHERE id = $1 AND organization_id = $2
       UNION SELECT i.id, i.${column} FROM incidents i JOIN chain ON i.id = chain.next WHERE i.organization_id = $2)
     SELECT 1 FROM chain WHERE id = $3`,
    [start, ctx.organizationId, target],
  )) as unknown[];
  return rows.length > 0;
}

/**
 * The changes of one write to one incident, gathered before anything is stored: attribute
 * changes, the timeline lines they write and the domain events they announce.
 */
export class IncidentPlan {
  readonly changes: Row = {};
  readonly trail: { kind: TimelineEventKind; text: string }[] = [];
  readonly events: IncidentEventType[] = [];
  /** Alerts attached and detached by this change: their side is written after the incident (incident-alerts.ts). */
  readonly alertLinks = { attached: [] as string[], detached: [] as string[] };
  private by: Promise<Row | null> | undefined;

  constructor(
    readonly current: Row,
    readonly ctx: WriteContext,
    readonly access: IncidentAccess,
  ) {}

  get id(): string {
    return String(this.current.id);
  }

  value(name: string): unknown {
    return name in this.changes ? this.changes[name] : this.current[name];
  }

  set(name: string, value: unknown): void {
    this.changes[name] = value;
  }

  record(kind: TimelineEventKind, text: string, event: IncidentEventType): void {
    this.trail.push({ kind, text });
    this.events.push(event);
  }

  actingUser(): Promise<Row | null> {
    this.by ??= actingUser(this.ctx, this.access.userId);
    return this.by;
  }
}

/** The domain event of a status move; a move back to started from an outcome is a restart. */
function statusEvent(from: IncidentStatus, to: IncidentStatus): IncidentEventType {
  if (to === 'started' && (from === 'resolved' || from === 'cancelled')) return INCIDENT_EVENTS.restarted;
  return `incident.${to}`;
}

/**
 * THE status move: the state machine decides (a refused move is a 422 with its detail and changes
 * nothing), then the stamps it sets (when empty, with the acting user) and clears (with their user
 * and outcome message), the message of the operation, a timeline line and the status's event.
 */
export async function move(plan: IncidentPlan, to: IncidentStatus | IncidentOperation, options: { fromStatusAttribute?: boolean; message?: [string, unknown] } = {}): Promise<void> {
  const from = plan.value('status') as IncidentStatus;
  const t = transition({ status: from, kind: plan.value('kind') as IncidentKind }, to);
  if (!t.ok) throw new IncidentsError(IncidentsErrorCode.InvalidTransition, t.detail, options.fromStatusAttribute ? '/data/attributes/status' : undefined);
  const [messageAttribute, message] = options.message ?? [];
  if (t.changed) {
    plan.set('status', t.status);
    for (const stamp of t.sets) {
      if (plan.value(stamp) != null) continue;
      plan.set(stamp, plan.ctx.now);
      if (ACTED_BY[stamp]) plan.set(ACTED_BY[stamp], await plan.actingUser());
    }
    for (const stamp of t.clears) {
      plan.set(stamp, null);
      if (ACTED_BY[stamp]) plan.set(ACTED_BY[stamp], null);
      if (OUTCOME_MESSAGES[stamp]) plan.set(OUTCOME_MESSAGES[stamp], null);
    }
    const said = typeof message === 'string' && message.length ? `: ${message}` : '';
    plan.record('status_change', `Status changed from ${from} to ${t.status}${said}`, statusEvent(from, t.status));
  }
  if (messageAttribute !== undefined && message !== undefined) plan.set(messageAttribute, message);
}

/** Makes `parentId` the incident's parent (no self reference, no cycle), or detaches it (null). */
export async function setParent(plan: IncidentPlan, parentId: string | null, strict = false): Promise<void> {
  const currentParent = plan.value('parent_incident_id') as string | null;
  if (parentId === null) {
    if (currentParent === null) {
      if (strict) throw invalid('parent_incident_id', 'The incident has no parent', IncidentsErrorCode.NoParent);
      return;
    }
    const [parent] = (await plan.ctx.manager.query('SELECT * FROM incidents WHERE id = $1', [currentParent])) as Row[];
    plan.set('parent_incident_id', null);
    plan.set('kind', kindFor(plan.value('kind') as IncidentKind, false));
    plan.record('parent', `Detached from parent incident ${parent ? label(parent) : currentParent}`, INCIDENT_EVENTS.detachedFromParent);
    return;
  }
  const parent = await findRelated(plan.ctx, plan.access, 'parent_incident_id', parentId, plan.id);
  if (String(parent.id) === currentParent) return;
  if (await reaches(plan.ctx, 'parent_incident_id', String(parent.id), plan.id)) {
    throw invalid('parent_incident_id', `parent_incident_id: incident ${label(parent)} is a sub-incident of this one: no cycles`, IncidentsErrorCode.Cycle);
  }
  plan.set('parent_incident_id', String(parent.id));
  plan.set('kind', kindFor(plan.value('kind') as IncidentKind, true));
  plan.record('parent', `Attached to parent incident ${label(parent)}`, INCIDENT_EVENTS.attachedToParent);
}

/**
 * Marks the incident a duplicate of another (no self reference, no cycle) and resolves it, as the
 * reference's resolve_incident body of the operation says; an incident already done keeps its
 * status. `null` unmarks it (a 422 when `strict` and it is not marked).
 */
export async function setDuplicate(plan: IncidentPlan, duplicateOf: string | null, options: { strict?: boolean; resolutionMessage?: unknown } = {}): Promise<void> {
  const current = plan.value('duplicate_incident_id') as string | null;
  if (duplicateOf === null) {
    if (current === null) {
      if (options.strict) throw invalid('duplicate_incident_id', 'The incident is not marked as duplicate', IncidentsErrorCode.NotDuplicate);
      return;
    }
    const [original] = (await plan.ctx.manager.query('SELECT * FROM incidents WHERE id = $1', [current])) as Row[];
    plan.set('duplicate_incident_id', null);
    plan.record('duplicate', `Unmarked as a duplicate of ${original ? label(original) : current}`, INCIDENT_EVENTS.unmarkedAsDuplicate);
    return;
  }
  const original = await findRelated(plan.ctx, plan.access, 'duplicate_incident_id', duplicateOf, plan.id);
  if (String(original.id) !== current) {
    if (await reaches(plan.ctx, 'duplicate_incident_id', String(original.id), plan.id)) {
      throw invalid('duplicate_incident_id', `duplicate_incident_id: incident ${label(original)} is a duplicate of this one: no cycles`, IncidentsErrorCode.Cycle);
    }
    plan.set('duplicate_incident_id', String(original.id));
    plan.record('duplicate', `Marked as a duplicate of ${label(original)}`, INCIDENT_EVENTS.markedAsDuplicate);
  }
  const message: [string, unknown] | undefined = options.resolutionMessage === undefined ? undefined : ['resolution_message', options.resolutionMessage];
  if (FINISHED.includes(plan.value('status') as IncidentStatus)) {
    if (message) plan.set(...message);
    return;
  }
  await move(plan, 'resolve', { message });
}

/** Users of the organization only: a 422 naming each unknown id of `attribute`. */
async function checkUsers(plan: IncidentPlan, attribute: string, ids: string[], many: boolean): Promise<void> {
  const found = await existingUserIds(plan.ctx.manager, plan.ctx.organizationId, ids);
  const issues = ids.flatMap((id, i) => (found.has(id) ? [] : [{ attribute: many ? `${attribute}/${i}` : attribute, detail: `${many ? `${attribute}[${i}]` : attribute}: ${id} is not a user of this organization`, code: IncidentsErrorCode.UnknownUser }]));
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
}

async function names(plan: IncidentPlan, ids: string[]): Promise<string> {
  const users = await userRecords(plan.ctx.manager, plan.ctx.organizationId, ids);
  return ids.map((id) => String(users.get(id)?.attributes.full_name ?? `user ${id}`)).join(', ');
}

/**
 * Adds or removes subscribers. `withoutPrivateAccessRemoved` (the body's
 * `remove_users_with_no_private_incident_access`) also unsubscribes, from a private incident,
 * every user whose roles do not let them read private incidents.
 */
export async function changeSubscribers(plan: IncidentPlan, add: boolean, userIds: readonly string[], withoutPrivateAccessRemoved: boolean): Promise<void> {
  const ids = [...new Set(userIds)];
  await checkUsers(plan, 'user_ids', ids, true);
  const before = (plan.value('subscriber_ids') as string[] | null) ?? [];
  let after = add ? [...new Set([...before, ...ids])] : before.filter((id) => !ids.includes(id));
  if (withoutPrivateAccessRemoved && plan.value('private') === true) {
    const kept: string[] = [];
    for (const id of after) {
      const permissions = await permissionsOf(plan.ctx.manager, { organizationId: plan.ctx.organizationId, userId: Number(id), apiKeyId: null, kind: 'personal' });
      if (can(permissions, 'private_incidents', 'read')) kept.push(id);
    }
    after = kept;
  }
  const added = after.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !after.includes(id));
  if (added.length === 0 && removed.length === 0) return;
  plan.set('subscriber_ids', after);
  if (added.length) plan.record('subscribers', `Subscribed: ${await names(plan, added)}`, INCIDENT_EVENTS.subscribersAdded);
  if (removed.length) plan.record('subscribers', `Unsubscribed: ${await names(plan, removed)}`, INCIDENT_EVENTS.subscribersRemoved);
}

type Assignment = { incident_role_id: string; user_id: string };

/**
 * Gives a user an incident role on this incident, or takes it back. The role must be an enabled
 * incident role of the organization and the user one of its users (422 naming each). A role
 * without `allow_multi_user_assignment` goes to one user at a time: assigning it replaces the
 * holder. Assigning what is held, or taking back what is not, changes nothing.
 */
export async function changeRole(plan: IncidentPlan, assign: boolean, incidentRoleId: string, userId: string): Promise<void> {
  const roleId = incidentRoleId.toLowerCase();
  const [role] = isUuid(roleId)
    ? ((await plan.ctx.manager.query('SELECT name, enabled, allow_multi_user_assignment FROM incident_roles WHERE id = $1 AND organization_id = $2', [roleId, plan.ctx.organizationId])) as Row[])
    : [];
  if (!role) throw invalid('incident_role_id', `incident_role_id: ${roleId} is not an incident role of this organization`, IncidentsErrorCode.UnknownReference);
  await checkUsers(plan, 'user_id', [userId], false);
  const roleName = String(role.name);
  const held = (plan.value('role_assignments') as Assignment[] | null) ?? [];
  const holds = (a: Assignment) => a.incident_role_id === roleId && a.user_id === userId;
  if (assign) {
    if (role.enabled === false) throw invalid('incident_role_id', `incident_role_id: the incident role ${roleName} is disabled`, IncidentsErrorCode.DisabledRole);
    if (held.some(holds)) return;
    const others = role.allow_multi_user_assignment === true ? held : held.filter((a) => a.incident_role_id !== roleId);
    plan.set('role_assignments', [...others, { incident_role_id: roleId, user_id: userId }]);
    plan.record('role_assignment', `${await names(plan, [userId])} assigned as ${roleName}`, INCIDENT_EVENTS.roleAssigned);
    return;
  }
  if (!held.some(holds)) return;
  plan.set('role_assignments', held.filter((a) => !holds(a)));
  plan.record('role_assignment', `${await names(plan, [userId])} unassigned from ${roleName}`, INCIDENT_EVENTS.roleUnassigned);
}

/**
 * A PUT of the incident: the same moves as the operations for `status`, `parent_incident_id` and
 * `duplicate_incident_id`, then the plain attributes (an explicitly sent time stamp or message
 * wins over the one a move set). Null for `kind`, `status` or `private` leaves them as they are.
 */
export async function applyUpdate(plan: IncidentPlan, attributes: Row): Promise<void> {
  const { status, kind, private: makePrivate, parent_incident_id: parent, duplicate_incident_id: duplicate, alert_ids: alertIds, ...rest } = await checkReferences(plan.ctx, attributes);
  if (makePrivate === false && plan.current.private === true) throw invalid('private', 'private: a private incident cannot be made public again', IncidentsErrorCode.PrivateIsFinal);
  if (makePrivate === true && plan.current.private !== true) {
    assertMayMakePrivate(plan.access, 'update');
    plan.set('private', true);
  }
  if (kind != null) plan.set('kind', kind);
  if (parent !== undefined) await setParent(plan, parent as string | null);
  if (duplicate !== undefined) await setDuplicate(plan, duplicate as string | null);
  if (status != null) await move(plan, status as IncidentStatus, { fromStatusAttribute: true });
  // The alerts' side changes with the incident's list (incident-alerts.ts); null detaches them all.
  if (alertIds !== undefined) await setAlerts(plan, (alertIds as string[] | null) ?? []);
  for (const [name, value] of Object.entries(rest)) plan.set(name, value);
  if ('title' in rest && rest.title === null) plan.set('title', `Incident #${String(plan.current.sequential_id)}`);
}

/** What every plan ends with: the kind's suffix follows the parent, and the status fits the kind. */
export function settle(plan: IncidentPlan): void {
  const kind = kindFor(plan.value('kind') as IncidentKind, plan.value('parent_incident_id') != null);
  plan.set('kind', kind);
  for (const [name, value] of Object.entries(plan.changes)) if (value === plan.current[name]) delete plan.changes[name];
  assertStatusOfKind(kind, plan.value('status') as IncidentStatus, 'kind');
}
