import { randomUUID } from 'node:crypto';
import { JsonApiError } from '@taproot/json-api';
import { existingEscalationPolicyIds, retriggerTimeoutsOfPaths } from '@taproot/on-call';
import type { WriteContext } from '@taproot/resources';
import { AlertingErrorCode } from '../errors';
import type { PagingTarget } from './paging-targets';

/**
 * What the alert's own transaction does to its paging (docs/paging.md): the durable steps the
 * worker fires, written with the alert's change, so an acknowledgement and the timer it stops
 * commit together and no step can fire after the alert stopped paging.
 */

/** How an escalation or a page is aimed: a policy and level (`escalate`), and why (`page_reason`). */
export interface PagingOrder {
  policyId?: string;
  level?: number;
  pageReason?: string | null;
}

/** An escalation's `escalation_policy_id` names a policy of the organization (422 naming it otherwise). */
export async function checkPagingOrder(ctx: WriteContext, order: PagingOrder | undefined): Promise<void> {
  if (!order?.policyId) return;
  if (!(await existingEscalationPolicyIds(ctx.manager, ctx.organizationId, [order.policyId])).has(order.policyId.toLowerCase())) {
    throw JsonApiError.invalidAttributes([
      { attribute: 'escalation_policy_id', detail: `escalation_policy_id: ${order.policyId} is not an escalation policy of this organization`, code: AlertingErrorCode.UnknownReference },
    ]);
  }
}

/** A durable timer of paging: a level to page, a snooze's end (`wake`) or an acknowledgement's timeout (`retrigger`). */
export type PagingStep = { alertId: string; trackId: string | null; kind: 'level' | 'wake' | 'retrigger'; level: number | null; repeat?: number; dueAt: Date };

export async function insertSteps(ctx: WriteContext, steps: PagingStep[]): Promise<void> {
  if (steps.length === 0) return;
  await ctx.manager.query(
    `INSERT INTO alert_paging_steps (id, organization_id, alert_id, track_id, kind, level, repeat, due_at, created_at)
     SELECT unnest($1::uuid[]), $2, unnest($3::uuid[]), unnest($4::uuid[]), unnest($5::text[]), unnest($6::int[]), unnest($7::int[]), unnest($8::timestamptz[]), $9`,
    [
      steps.map(() => randomUUID()),
      ctx.organizationId,
      steps.map((s) => s.alertId),
      steps.map((s) => s.trackId),
      steps.map((s) => s.kind),
      steps.map((s) => s.level),
      steps.map((s) => s.repeat ?? 0),
      steps.map((s) => s.dueAt),
      ctx.now,
    ],
  );
}

/** The alert's run number for a fresh start of paging: one more than its last. */
async function nextRun(ctx: WriteContext, alertId: string): Promise<number> {
  const [row] = (await ctx.manager.query('SELECT coalesce(max(run), 0) + 1 AS run FROM alert_paging_tracks WHERE organization_id = $1 AND alert_id = $2', [ctx.organizationId, alertId])) as { run: number }[];
  return Number(row.run);
}

/** New tracks of `run` for `targets`, each with its first step due now. */
async function addTracks(ctx: WriteContext, alertId: string, run: number, targets: PagingTarget[], order: PagingOrder): Promise<void> {
  const tracks = targets.map((target) => ({ id: randomUUID(), target }));
  if (tracks.length === 0) return;
  await ctx.manager.query(
    `INSERT INTO alert_paging_tracks (id, organization_id, alert_id, run, target_type, target_id, escalation_policy_id, page_reason, created_at, updated_at)
     SELECT unnest($1::uuid[]), $2, $3, $4, unnest($5::text[]), unnest($6::text[]), unnest($7::uuid[]), $8, $9, $9`,
    [
      tracks.map((t) => t.id),
      ctx.organizationId,
      alertId,
      run,
      tracks.map((t) => t.target.type),
      tracks.map((t) => t.target.id),
      tracks.map((t) => (t.target.type === 'EscalationPolicy' ? t.target.id : null)),
      order.pageReason ?? null,
      ctx.now,
    ],
  );
  await insertSteps(ctx, tracks.map((t) => ({ alertId, trackId: t.id, kind: 'level', level: order.level ?? 1, dueAt: ctx.now })));
}

/** Stops all paging of the alert: its tracks end, its timers go, its unsent notifications are cancelled. */
export async function stopPaging(ctx: WriteContext, alertId: string): Promise<void> {
  const args = [ctx.organizationId, alertId];
  await ctx.manager.query('UPDATE alert_paging_tracks SET active = false, updated_at = $3 WHERE organization_id = $1 AND alert_id = $2 AND active', [...args, ctx.now]);
  await ctx.manager.query('DELETE FROM alert_paging_steps WHERE organization_id = $1 AND alert_id = $2 AND fired_at IS NULL', args);
  await ctx.manager.query(`UPDATE alert_notifications SET status = 'cancelled' WHERE organization_id = $1 AND alert_id = $2 AND status = 'pending'`, args);
}

/**
 * Pages from the first level (or `order.level`): a new run over the alert's targets, or only the
 * policy `order.policyId` names. Whatever paged before stops.
 */
export async function startPaging(ctx: WriteContext, alertId: string, targets: PagingTarget[], order: PagingOrder = {}): Promise<void> {
  await stopPaging(ctx, alertId);
  const aimed = order.policyId ? [{ type: 'EscalationPolicy' as const, id: order.policyId.toLowerCase() }] : targets;
  await addTracks(ctx, alertId, await nextRun(ctx, alertId), aimed, order);
}

/**
 * Escalates a paging alert now: every active track to its next level (or `order.level`); with
 * `order.policyId`, that policy's track, added at level 1 (or `order.level`) when it was not
 * paging. An alert with nothing paging starts over.
 */
export async function escalatePaging(ctx: WriteContext, alertId: string, targets: PagingTarget[], order: PagingOrder = {}): Promise<void> {
  const active = (await ctx.manager.query('SELECT id, run, level, repeat, escalation_policy_id::text AS policy FROM alert_paging_tracks WHERE organization_id = $1 AND alert_id = $2 AND active', [
    ctx.organizationId,
    alertId,
  ])) as { id: string; run: number; level: number; repeat: number; policy: string | null }[];
  if (active.length === 0) return startPaging(ctx, alertId, targets, order);
  const policy = order.policyId?.toLowerCase();
  const moved = policy ? active.filter((t) => t.policy === policy) : active;
  if (policy && moved.length === 0) return addTracks(ctx, alertId, active[0].run, [{ type: 'EscalationPolicy', id: policy }], order);
  await ctx.manager.query('DELETE FROM alert_paging_steps WHERE organization_id = $1 AND track_id = ANY($2::uuid[]) AND fired_at IS NULL', [ctx.organizationId, moved.map((t) => t.id)]);
  await insertSteps(ctx, moved.map((t) => ({ alertId, trackId: t.id, kind: 'level', level: order.level ?? t.level + 1, repeat: t.repeat, dueAt: ctx.now })));
}

/** An ownership transfer of a paging alert: the added targets are paged (`manual_reassignment`), the removed ones stop. */
export async function reassignPaging(ctx: WriteContext, alertId: string, change: { added: PagingTarget[]; removed: PagingTarget[] }): Promise<void> {
  for (const target of change.removed) {
    const ended = (await ctx.manager.query(
      'UPDATE alert_paging_tracks SET active = false, updated_at = $5 WHERE organization_id = $1 AND alert_id = $2 AND target_type = $3 AND target_id = $4 AND active RETURNING id',
      [ctx.organizationId, alertId, target.type, target.id, ctx.now],
    )) as [{ id: string }[], number];
    const ids = ended[0].map((t) => t.id);
    if (ids.length) await ctx.manager.query('DELETE FROM alert_paging_steps WHERE organization_id = $1 AND track_id = ANY($2::uuid[]) AND fired_at IS NULL', [ctx.organizationId, ids]);
  }
  if (change.added.length === 0) return;
  const [row] = (await ctx.manager.query('SELECT max(run) AS run FROM alert_paging_tracks WHERE organization_id = $1 AND alert_id = $2', [ctx.organizationId, alertId])) as { run: number | null }[];
  await addTracks(ctx, alertId, row.run ?? (await nextRun(ctx, alertId)), change.added, { pageReason: 'manual_reassignment' });
}

/**
 * Minutes after which an acknowledgement of the alert times out and it is triggered again: the
 * smallest `retrigger_timeout_minutes` of the escalation paths its active tracks page on (the
 * path is the more specific setting), else its urgency's; null: never. Read before the
 * acknowledgement stops the tracks.
 */
export async function retriggerTimeoutOf(ctx: WriteContext, alertId: string, urgencyId: unknown): Promise<number | null> {
  const paths = (await ctx.manager.query('SELECT DISTINCT escalation_path_id::text AS id FROM alert_paging_tracks WHERE organization_id = $1 AND alert_id = $2 AND active AND escalation_path_id IS NOT NULL', [
    ctx.organizationId,
    alertId,
  ])) as { id: string }[];
  const ofPaths = [...(await retriggerTimeoutsOfPaths(ctx.manager, ctx.organizationId, paths.map((p) => p.id))).values()];
  if (ofPaths.length) return Math.min(...ofPaths);
  if (urgencyId == null) return null;
  const [urgency] = (await ctx.manager.query('SELECT retrigger_timeout_minutes FROM alert_urgencies WHERE organization_id = $1 AND id = $2', [ctx.organizationId, urgencyId])) as {
    retrigger_timeout_minutes: number | null;
  }[];
  return urgency?.retrigger_timeout_minutes ?? null;
}

/** A wake-up (a snooze's end) or a re-trigger (an acknowledgement nobody resolved) of the alert at `dueAt`. */
export async function pagingTimer(ctx: WriteContext, alertId: string, kind: 'wake' | 'retrigger', dueAt: Date): Promise<void> {
  await insertSteps(ctx, [{ alertId, trackId: null, kind, level: null, dueAt }]);
}
