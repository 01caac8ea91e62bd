import { randomUUID } from 'node:crypto';
import { existingUserIds } from '@taproot/identity';
import { existingIds, JsonApiError } from '@taproot/json-api';
import { checkReferenced, type Reference, type Row, type WriteContext } from '@taproot/resources';
import { IncidentsErrorCode } from '../errors';
import { FORM_FIELDS } from '../forms/form-rules';
import { INCIDENT_STATUSES } from '../incidents/incident.state';

type Issue = { attribute: string; detail: string; code?: string };

const SUB_STATUSES: Reference = { noun: 'sub-status', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingIds(db, 'sub_statuses', org, ids) };
const MANAGERS: Record<string, Reference> = {
  manager_role_id: { noun: 'incident role', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingIds(db, 'incident_roles', org, ids) },
  manager_user_id: { noun: 'user', code: IncidentsErrorCode.UnknownUser, existing: existingUserIds },
};

/** The sub-status phase that refines each deadline parent status (docs/incident-lifecycle.md, "Sub-statuses"). */
const PHASE_OF: Record<string, string> = { started: 'started', resolved: 'retrospective' };
const DEADLINES = ['assignment', 'completion'] as const;
const DEADLINE_ATTRIBUTES = DEADLINES.flatMap((d) => [`${d}_deadline_parent_status`, `${d}_deadline_sub_status_id`]);

const refuse = (issues: Issue[]) => {
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
};

/** A create names one manager; naming none makes the calling user the manager (docs/slas.md). */
function createManagers(attributes: Row, ctx: WriteContext): Row {
  const { manager_role_id: role, manager_user_id: user } = attributes;
  if (role != null && user != null) refuse([{ attribute: 'manager_user_id', detail: 'manager_user_id: send either manager_role_id or manager_user_id, not both' }]);
  if (role != null || user != null) return attributes;
  if (ctx.userId == null) {
    refuse([{ attribute: 'manager_user_id', detail: 'manager_user_id: an SLA needs a manager; send manager_role_id or manager_user_id (this API key acts for no user)', code: IncidentsErrorCode.RequiredAttribute }]);
  }
  return { ...attributes, manager_role_id: null, manager_user_id: Number(ctx.userId) };
}

/** Naming one manager replaces the other; nulls alone never leave an SLA without one (the stored one stays). */
function updateManagers(changes: Row): Row {
  const { manager_role_id: role, manager_user_id: user, ...rest } = changes;
  if (role != null && user != null) refuse([{ attribute: 'manager_user_id', detail: 'manager_user_id: send either manager_role_id or manager_user_id, not both' }]);
  if (role != null) return { ...rest, manager_role_id: role, manager_user_id: null };
  if (user != null) return { ...rest, manager_role_id: null, manager_user_id: user };
  return rest;
}

/** Each deadline's sub-status is one of the organization's and refines the deadline's parent status. */
async function checkDeadlines(record: Row, ctx: WriteContext): Promise<void> {
  const issues: Issue[] = [];
  for (const d of DEADLINES) {
    const attribute = `${d}_deadline_sub_status_id`;
    const id = record[attribute];
    if (id == null) continue;
    const [row] = (await ctx.manager.query('SELECT parent_status FROM sub_statuses WHERE organization_id = $1 AND id = $2', [ctx.organizationId, id])) as { parent_status: string }[];
    const status = String(record[`${d}_deadline_parent_status`]);
    if (!row) issues.push({ attribute, detail: `${attribute}: ${String(id)} is not a sub-status of this organization`, code: IncidentsErrorCode.UnknownReference });
    else if (PHASE_OF[status] !== row.parent_status) {
      const fits = Object.entries(PHASE_OF).find(([, phase]) => phase === row.parent_status)?.[0];
      issues.push({ attribute, detail: `${attribute}: sub-status ${String(id)} refines ${fits} incidents; the deadline's parent status is ${status}`, code: IncidentsErrorCode.InvalidStatus });
    }
  }
  refuse(issues);
}

/** Ids of `ids` that `reference` does not know in the organization (lower-cased as stored). */
async function unknownOf(ctx: WriteContext, reference: Reference, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const found = await reference.existing(ctx.manager, ctx.organizationId, [...new Set(ids.map((id) => id.toLowerCase()))]);
  return new Set(ids.filter((id) => !found.has(id.toLowerCase())));
}

/**
 * A built-in condition names its property, a custom one its form field of the organization;
 * `status` compares incident statuses and `sub_status` the organization's sub-statuses. Each
 * condition gets an id and its position.
 */
async function checkConditions(conditions: Row[], ctx: WriteContext): Promise<Row[]> {
  const issues: Issue[] = [];
  const at = (i: number, member: string) => `conditions/${i}/${member}`;
  const subStatusValues = conditions.flatMap((c) => (c.property === 'sub_status' ? ((c.values as string[] | null) ?? []) : []));
  const unknownSubStatuses = await unknownOf(ctx, SUB_STATUSES, subStatusValues);
  const formFieldIds = conditions.flatMap((c) => (c.form_field_id == null ? [] : [String(c.form_field_id)]));
  const unknownFields = await unknownOf(ctx, FORM_FIELDS, formFieldIds);
  for (const [i, c] of conditions.entries()) {
    if (c.conditionable_type === 'SLAs::BuiltInFieldCondition') {
      if (c.property == null) issues.push({ attribute: at(i, 'property'), detail: `${at(i, 'property')}: a built-in field condition names the property it evaluates`, code: IncidentsErrorCode.RequiredAttribute });
      if (c.form_field_id != null) issues.push({ attribute: at(i, 'form_field_id'), detail: `${at(i, 'form_field_id')}: only a custom field condition names a form field` });
    } else {
      if (c.form_field_id == null) issues.push({ attribute: at(i, 'form_field_id'), detail: `${at(i, 'form_field_id')}: a custom field condition names its form field`, code: IncidentsErrorCode.RequiredAttribute });
      else if (unknownFields.has(String(c.form_field_id))) issues.push({ attribute: at(i, 'form_field_id'), detail: `${at(i, 'form_field_id')}: ${String(c.form_field_id)} is not a form field of this organization`, code: IncidentsErrorCode.UnknownReference });
      if (c.property != null) issues.push({ attribute: at(i, 'property'), detail: `${at(i, 'property')}: a custom field condition evaluates its form field, not a built-in property` });
    }
    for (const [j, value] of ((c.values as string[] | null) ?? []).entries()) {
      const wrong =
        c.property === 'status' && !(INCIDENT_STATUSES as readonly string[]).includes(value) ? `${JSON.stringify(value)} is not an incident status (${INCIDENT_STATUSES.join(', ')})`
        : c.property === 'sub_status' && unknownSubStatuses.has(value) ? `${JSON.stringify(value)} is not a sub-status of this organization`
        : null;
      if (wrong) issues.push({ attribute: `${at(i, 'values')}/${j}`, detail: `${at(i, 'values')}/${j}: ${wrong}`, code: IncidentsErrorCode.UnknownReference });
    }
  }
  refuse(issues);
  return conditions.map((c, i) => ({ ...c, id: randomUUID(), position: c.position ?? i + 1 }));
}

/** `when_due` is the deadline itself: 0 days. Each configuration gets an id and its timestamps. */
function checkNotifications(configurations: Row[], ctx: WriteContext): Row[] {
  refuse(
    configurations.flatMap((n, i) =>
      n.offset_type === 'when_due' && n.offset_days !== 0
        ? [{ attribute: `notification_configurations/${i}/offset_days`, detail: `notification_configurations/${i}/offset_days: must be 0 for when_due (got ${String(n.offset_days)})` }]
        : [],
    ),
  );
  const now = ctx.now.toISOString();
  return configurations.map((n) => ({ ...n, id: randomUUID(), created_at: now, updated_at: now }));
}

/** The replaced lists (an update replaces them whole), checked and completed. */
async function checkLists(attributes: Row, ctx: WriteContext): Promise<Row> {
  const next = { ...attributes };
  if (Array.isArray(attributes.conditions)) next.conditions = await checkConditions(attributes.conditions as Row[], ctx);
  if (Array.isArray(attributes.notification_configurations)) next.notification_configurations = checkNotifications(attributes.notification_configurations as Row[], ctx);
  return next;
}

/** The rules of docs/slas.md, inside the command's transaction: a refusal writes nothing. */
export const slaRules = {
  async beforeCreate(attributes: Row, ctx: WriteContext): Promise<Row> {
    const checked = await checkReferenced(ctx, createManagers(attributes, ctx), MANAGERS);
    await checkDeadlines(checked, ctx);
    return checkLists(checked, ctx);
  },
  async beforeUpdate(current: Row, changes: Row, ctx: WriteContext): Promise<Row> {
    const checked = await checkReferenced(ctx, updateManagers(changes), MANAGERS);
    if (DEADLINE_ATTRIBUTES.some((name) => checked[name] !== undefined)) await checkDeadlines({ ...current, ...checked }, ctx);
    return checkLists(checked, ctx);
  },
};
