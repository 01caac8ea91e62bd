import { randomBytes } from 'node:crypto';
import { checkKeyValuePairs, existingIds, JsonApiError, type Queryable, type ResourceObject } from '@taproot/json-api';
import { domainEvent, type EventActor } from '@taproot/messaging';
import { ResourceWriter, snapshotObject, type Keep, type Row, type Snapshot, type WriteContext } from '@taproot/resources';
import { ALERT_EVENTS } from '../events';
import { alertTrailDefinition, eventSource, type AlertEventAction } from './alert-event.schema';
import { alertSchema } from './alert.schema';
import { checkAlertReferences, requireAlertReferences } from './notification-targets';
import { ALERT_STAMPS, transition, type AlertMove, type AlertOperation, type AlertStatus, type AlertTransition } from './alert.state';
import { AlertingError, REFUSAL_CODES, AlertingErrorCode } from '../errors';
import { retriggerRuleForRepeat } from '../alert-retrigger-rules/retrigger-on-repeat';
import { checkPagingOrder, escalatePaging, pagingTimer, reassignPaging, retriggerTimeoutOf, startPaging, stopPaging, type PagingOrder } from '../paging/paging-schedule';
import { alertTargetsOf, reassignment } from '../paging/paging-targets';
import { unresolvedFollowers } from '../alert-groups/alert-grouping';

/** Who acts on alerts: every alert command carries it. */
export interface AlertAccess {
  organizationId: string;
  actor: EventActor;
  /** The acting user (integer id as text); null for a key without a user. */
  userId: string | null;
}

/** What `changeAlert` is asked to do: a PATCH's attributes (which may set `status`), or one of the operations. */
export type AlertChange =
  | { kind: 'update'; attributes: Row }
  | { kind: 'operation'; operation: AlertOperation; delayMinutes?: unknown; order?: PagingOrder; resolution?: Resolution };

/** How a resolve was asked for (reference `resolve_alert`). */
export interface Resolution {
  message: string | null;
  /** Announced on `alert.resolved`: the incidents context resolves the alert's incidents. */
  relatedIncidents: boolean;
}

/** What a create answers: the alert, and whether an unresolved alert with the same key took it in. */
export interface AlertCreated {
  alert: ResourceObject;
  deduplicated: boolean;
}

const trailWriter = new ResourceWriter(alertTrailDefinition);

/** Writes one alert event (the alert's timeline line) in the change's transaction. */
export async function recordAlertEvent(ctx: WriteContext, access: AlertAccess, alertId: string, kind: string, action: AlertEventAction, details: string, keep: Keep): Promise<void> {
  keep(await trailWriter.create(ctx, { kind, action, details, user_id: access.userId, source: eventSource(access.actor) }, alertId));
}

/** What paging writes on the alert's timeline: a level paged or skipped, a notification sent or failed. */
export interface PagingEventLine {
  action: AlertEventAction;
  details: string;
  level: number | null;
  targetType: string | null;
  pageReason: string | null;
}

/** Writes paging lines of alerts' timelines (kind `notification`, source `system`), in two statements however many. */
export async function recordPagingEvents(ctx: WriteContext, keep: Keep, lines: readonly { alertId: string; line: PagingEventLine }[]): Promise<void> {
  const written = await trailWriter.createMany(
    ctx,
    lines.map(({ alertId, line }) => ({
      input: { kind: 'notification', action: line.action, details: line.details, user_id: null, source: 'system', escalation_level: line.level, escalation_target_type: line.targetType, page_reason: line.pageReason },
      parentId: alertId,
    })),
  );
  for (const result of written) keep(result);
}

/**
 * Queues the writer's event with `extra` events beside it, all carrying the alert's snapshot;
 * `updatedAlso` goes into the writer's event only (an urgency change's previous urgency).
 */
function announce(
  ctx: WriteContext,
  result: { snapshot: Snapshot; events: ReturnType<typeof domainEvent>[] },
  extra: readonly { type: string; payload?: Row }[],
  keep: Keep,
  updatedAlso: Row = {},
): ResourceObject {
  const alert = snapshotObject(alertSchema, result.snapshot);
  const payload = { id: alert.id, ...alert.attributes };
  const more = extra.map(({ type, payload: added }) =>
    domainEvent({ type, organizationId: ctx.organizationId, aggregateType: alertSchema.type, aggregateId: alert.id, actor: ctx.actor, payload: { ...payload, ...added }, occurredAt: ctx.now }),
  );
  keep({ snapshot: result.snapshot, events: [...result.events.map((e) => ({ ...e, payload: { ...payload, ...updatedAlso } })), ...more] });
  return alert;
}

const refusal = (t: Extract<AlertTransition, { ok: false }>) => new AlertingError(REFUSAL_CODES[t.code], t.detail);

/**
 * `alert_urgency_id` must name an urgency of the organization (alerts and alert sources); `known`:
 * the organization's urgencies among those the caller already looked up (it includes this one).
 */
export async function checkUrgency(ctx: WriteContext, attributes: Row, known?: Set<string>): Promise<void> {
  const id = attributes.alert_urgency_id;
  if (id == null) return;
  if (!(known ?? (await existingIds(ctx.manager, 'alert_urgencies', ctx.organizationId, [String(id)]))).has(String(id))) {
    throw JsonApiError.invalidAttributes([{ attribute: 'alert_urgency_id', detail: `alert_urgency_id: ${String(id)} is not an alert urgency of this organization`, code: AlertingErrorCode.UnknownAlertUrgency }]);
  }
}

/**
 * The organization's unresolved alert of `source` and alert source with the deduplication key
 * (index `alerts_dedup`): what a duplicate folds into and a resolving item resolves. An alert
 * source's alerts match on its id; `alertSourceId` null (alerts posted to `/v1/alerts`) matches
 * only alerts without one, by `source`.
 */
export async function unresolvedAlert(db: Queryable, organizationId: string, source: string, alertSourceId: string | null, key: string): Promise<{ id: string } | undefined> {
  const bySource = alertSourceId === null ? 'alert_source_id IS NULL' : 'alert_source_id = $4';
  const [found] = (await db.query(
    `SELECT id FROM alerts WHERE organization_id = $1 AND source = $2 AND deduplication_key = $3 AND ${bySource} AND status <> 'resolved' ORDER BY created_at LIMIT 1`,
    alertSourceId === null ? [organizationId, source, key] : [organizationId, source, key, alertSourceId],
  )) as { id: string }[];
  return found;
}

/**
 * What `alert.updated` adds when a change moves the urgency (spec Events 4): the previous one
 * (`previous_alert_urgency_id`, null when there was none); the new one is the snapshot's
 * `alert_urgency_id`.
 */
function urgencyChange(current: Row, changes: Row): Row {
  const previous = current.alert_urgency_id == null ? null : String(current.alert_urgency_id);
  if (!('alert_urgency_id' in changes) || previous?.toLowerCase() === (changes.alert_urgency_id == null ? undefined : String(changes.alert_urgency_id).toLowerCase())) return {};
  return { previous_alert_urgency_id: previous };
}

/**
 * A client's labels must be what the reference declares and answers: each a `{key, value}` pair
 * with a string key and a string, number or boolean value; nothing is stored on a failure.
 */
const requireLabels = (attributes: Row): void => checkKeyValuePairs(attributes, ['labels'], ['string', 'number', 'boolean']);

const hasTarget = (a: Row) => (Array.isArray(a.notification_targets) && a.notification_targets.length > 0) || (a.notification_target_type != null && a.notification_target_id != null);

/** Attributes a duplicate carries onto the alert it deduplicates into (what a sender refreshes). */
const REFRESHED = ['summary', 'description', 'labels', 'data', 'external_id', 'external_url', 'alert_urgency_id', 'service_ids', 'group_ids', 'environment_ids', 'functionality_ids', 'noise', 'alert_field_values'];

/**
 * Creates an alert, or deduplicates it: under a transaction-level advisory lock on
 * (organization, source, alert source, key), an unresolved alert of the same source and alert
 * source (`alert_source_id`, null for `/v1/alerts`) with the key is updated
 * instead (docs/alerts.md). A new alert pages (`triggered`) when it names a notification
 * target, otherwise it is `open`; a client may set another status except `deferred`.
 */
export async function createAlert(writer: ResourceWriter, ctx: WriteContext, keep: Keep, access: AlertAccess, attributesIn: Row): Promise<AlertCreated> {
  if (attributesIn.alert_source_id == null) requireLabels(attributesIn);
  await checkUrgency(ctx, attributesIn);
  // A sender cannot fix its payload from an answer: an alert through an alert source keeps the
  // references that exist and notes the others; a client's create is refused (docs/alerts.md).
  const checked = await checkAlertReferences(ctx, attributesIn);
  if (checked.issues.length && attributesIn.alert_source_id == null) throw JsonApiError.invalidAttributes(checked.issues);
  const dropped = checked.issues.length ? `; left out: ${checked.issues.map((i) => i.detail).join('; ')}` : '';
  const attributes: Row = { ...checked.attributes, source: attributesIn.source ?? 'api' };
  const key = attributes.deduplication_key;
  if (key != null) {
    const alertSourceId = attributes.alert_source_id == null ? null : String(attributes.alert_source_id);
    await ctx.manager.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [`alerts:${ctx.organizationId}:${String(attributes.source)}:${alertSourceId ?? ''}`, String(key)]);
    const existing = await unresolvedAlert(ctx.manager, ctx.organizationId, String(attributes.source), alertSourceId, String(key));
    if (existing) {
      const changes = Object.fromEntries(REFRESHED.filter((name) => name in attributes).map((name) => [name, attributes[name]]));
      // Field values name their alert: now the one they fold into.
      if (Array.isArray(changes.alert_field_values)) changes.alert_field_values = (changes.alert_field_values as Row[]).map((v) => ({ ...v, alert_id: existing.id }));
      const current = await writer.load(ctx.manager, ctx.organizationId, existing.id, true);
      const rule = await retriggerRuleForRepeat(ctx, current, attributes);
      const refreshed = announce(ctx, await writer.update(ctx, existing.id, changes), [], keep, urgencyChange(current, changes));
      await recordAlertEvent(ctx, access, refreshed.id, 'alert_grouping', 'updated', `A new alert with deduplication key ${String(key)} was deduplicated into this alert${dropped}`, keep);
      if (!rule) return { alert: refreshed, deduplicated: true };
      // An acknowledged alert firing again under a re-trigger rule pages again, from the first level.
      await recordAlertEvent(ctx, access, refreshed.id, 'informational', 'triggered', `Fired again while acknowledged: re-triggered by the alert re-trigger rule ${rule.name}`, keep);
      return { alert: await changeAlert(writer, ctx, keep, access, existing.id, { kind: 'update', attributes: { status: 'triggered' } }), deduplicated: true };
    }
  }
  const status = (attributes.status as AlertStatus | undefined) ?? (hasTarget(attributes) ? 'triggered' : 'open');
  if (status === 'deferred') {
    const t = transition('open', { status: 'deferred' });
    if (!t.ok) throw refusal(t);
  }
  const stamps = Object.fromEntries(ALERT_STAMPS[status].filter((s) => attributes[s] == null).map((s) => [s, ctx.now]));
  const result = await writer.create(ctx, { ...attributes, ...stamps, status, short_id: randomBytes(5).toString('hex') });
  const alert = announce(ctx, result, [], keep);
  await recordAlertEvent(ctx, access, alert.id, 'informational', 'created', `Alert created (${status})${dropped}`, keep);
  if (status === 'triggered') await startPaging(ctx, alert.id, alertTargetsOf(attributes));
  return { alert, deduplicated: false };
}

/** What a change does to the alert's paging (docs/paging.md), in its transaction. */
async function repage(ctx: WriteContext, before: Row, after: Row, t: Extract<AlertTransition, { ok: true }> | null, order: PagingOrder | undefined): Promise<void> {
  const id = String(after.id);
  if (t === null) {
    if (after.status === 'triggered') await reassignPaging(ctx, id, reassignment(before, after));
    return;
  }
  if (t.paging === 'page') {
    if (before.status === 'triggered') await escalatePaging(ctx, id, alertTargetsOf(after), order);
    else await startPaging(ctx, id, alertTargetsOf(after), order);
  } else if (t.paging === 'cancel' || t.paging === 'defer') {
    // An acknowledged alert nobody resolves is triggered again after its path's or urgency's
    // timeout, read while its tracks still say which paths it was paging on.
    const timeout = t.paging === 'cancel' && t.status === 'acknowledged' ? await retriggerTimeoutOf(ctx, id, after.alert_urgency_id) : null;
    await stopPaging(ctx, id);
    if (t.paging === 'defer') await pagingTimer(ctx, id, 'wake', after.snoozed_until as Date);
    else if (timeout) await pagingTimer(ctx, id, 'retrigger', new Date(ctx.now.getTime() + timeout * 60_000));
  }
}

/** The alert event action of a status reached by a move. */
function actionOf(move: AlertMove, status: AlertStatus): AlertEventAction {
  if ('operation' in move && move.operation === 'escalate') return 'escalated';
  const actions: Record<AlertStatus, AlertEventAction> = { open: 'open', triggered: 'triggered', acknowledged: 'acknowledged', resolved: 'resolved', deferred: 'snoozed' };
  return actions[status];
}

/**
 * THE change of an alert: a PATCH's attributes and its `status`, and the operations, all go
 * through `transition` (alert.state.ts). A refused move changes nothing and answers the
 * machine's status and detail; a no-op answers the alert unchanged and announces nothing.
 */
export async function changeAlert(writer: ResourceWriter, ctx: WriteContext, keep: Keep, access: AlertAccess, id: string, change: AlertChange): Promise<ResourceObject> {
  const current = await writer.load(ctx.manager, ctx.organizationId, id, true);
  const from = current.status as AlertStatus;
  let move: AlertMove | null = null;
  const changes: Row = {};
  if (change.kind === 'update') {
    const { status, ...asked } = change.attributes;
    requireLabels(asked);
    await checkUrgency(ctx, asked);
    const rest = await requireAlertReferences(ctx, asked, current);
    for (const [name, value] of Object.entries(rest)) if (JSON.stringify(value) !== JSON.stringify(snapshotObject(alertSchema, current as Snapshot).attributes[name])) changes[name] = value;
    if (status !== undefined) move = { status: status as AlertStatus };
  } else if (change.operation === 'snooze') {
    move = { operation: 'snooze', delayMinutes: change.delayMinutes as number };
  } else {
    move = { operation: change.operation };
  }
  const t = move ? transition(from, move) : null;
  if (t && !t.ok) throw refusal(t);
  if (change.kind === 'operation') await checkPagingOrder(ctx, change.order);
  const moved = t !== null && t.ok && t.changed;
  if (moved) {
    changes.status = t.status;
    // A time the client (or a sender, Alertmanager's endsAt) gives wins over the time of the change.
    for (const s of t.sets) if (current[s] == null && !(s in changes)) changes[s] = ctx.now;
    for (const s of t.clears) changes[s] = null;
    changes.snoozed_until = t.delayMinutes === undefined ? null : new Date(ctx.now.getTime() + t.delayMinutes * 60_000);
  }
  if (Object.keys(changes).length === 0) return snapshotObject(alertSchema, current as Snapshot);
  const extra: { type: string; payload?: Row }[] = [];
  const resolution = change.kind === 'operation' ? change.resolution : undefined;
  if (moved && t.event) {
    const payload = t.delayMinutes !== undefined ? { delay_minutes: t.delayMinutes } : resolution ? { resolution_message: resolution.message, resolve_related_incidents: resolution.relatedIncidents } : {};
    extra.push({ type: t.event, payload });
  }
  if (moved && (t.paging === 'cancel' || t.paging === 'defer')) extra.push({ type: ALERT_EVENTS.pagingCancelled, payload: { previous_status: from } });
  // A snooze's alert.updated says how long, as alert.snoozed does (spec Events 4: the snooze duration in webhooks).
  const snoozed = moved && t.delayMinutes !== undefined ? { delay_minutes: t.delayMinutes } : {};
  const alert = announce(ctx, await writer.update(ctx, String(current.id), changes), extra, keep, { ...urgencyChange(current, changes), ...snoozed });
  if (moved) {
    const how = resolution?.message ? `: ${resolution.message}` : '';
    const details = t.delayMinutes === undefined ? `Alert ${from} → ${t.status}${how}` : `Alert snoozed for ${t.delayMinutes} minutes`;
    await recordAlertEvent(ctx, access, alert.id, 'status_update', actionOf(move!, t.status), details, keep);
  }
  await repage(ctx, current, { ...current, ...changes }, moved ? t : null, change.kind === 'operation' ? change.order : undefined);
  // Resolving a group's leader resolves the group (docs/alert-groups.md).
  if (moved && t.status === 'resolved' && current.is_group_leader_alert === true) {
    for (const follower of await unresolvedFollowers(ctx.manager, ctx.organizationId, String(current.id))) await changeAlert(writer, ctx, keep, access, follower, { kind: 'update', attributes: { status: 'resolved' } });
  }
  const others = Object.keys(changes).filter((n) => !['status', 'started_at', 'ended_at', 'snoozed_until'].includes(n));
  if (others.length) await recordAlertEvent(ctx, access, alert.id, 'informational', 'updated', `Alert updated: ${others.join(', ')}`, keep);
  return alert;
}
