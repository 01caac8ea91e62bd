import { randomUUID } from 'node:crypto';
import { deliveriesOf } from '@taproot/identity';
import type { EventActor } from '@taproot/messaging';
import { choosePath, nextStep, pickRecipients, type AlertFacts, type PlanLevel, type PlanPath } from '@taproot/on-call';
import type { Keep, ResourceWriter, Row, WriteContext } from '@taproot/resources';
import { changeAlert, recordPagingEvent, type AlertAccess } from '../alerts/alert-writes';
import { evaluateJsonPath } from '../ingestion/json-path';
import type { PagingLookups } from './paging-lookups';

/** The paging engine acts as the system (alert events' `source`: system). */
export const PAGING_ACTOR: EventActor = { kind: 'system', id: null };

interface StepRow {
  id: string;
  alert_id: string;
  track_id: string | null;
  kind: 'level' | 'wake' | 'retrigger';
  level: number | null;
  repeat: number | null;
}

interface TrackRow {
  id: string;
  run: number;
  target_type: string;
  target_id: string;
  escalation_policy_id: string | null;
  escalation_path_id: string | null;
  level: number;
  page_reason: string | null;
}

/** Whom one level of a track pages, resolved from its target at the time it fires. */
interface Resolved {
  /** The level to page (a policy's, or one made of the target itself), and what follows it. */
  level: PlanLevel;
  path: PlanPath | null;
  policy: { id: string; name: string } | null;
}

/** The facts an escalation path's rules look at (on-call's AlertFacts). */
function factsOf(alert: Row): AlertFacts {
  return {
    urgencyId: alert.alert_urgency_id == null ? null : String(alert.alert_urgency_id),
    serviceIds: ((alert.service_ids as string[] | null) ?? []).map(String),
    source: alert.source == null ? null : String(alert.source),
    hasIncidents: ((alert.incident_ids as string[] | null) ?? []).length > 0,
    valuesAt: (path) => {
      try {
        const value = evaluateJsonPath(alert.data ?? {}, path);
        return value === undefined ? [] : Array.isArray(value) ? value : [value];
      } catch {
        return [];
      }
    },
    // Alert field values are not stored on alerts yet: a field rule sees no value.
    fieldValues: () => [],
  };
}

/** A level made of the target itself (a user, a team's members): paged once, nothing follows. */
const levelOf = (type: 'user' | 'team', id: string): PlanLevel => ({
  id: `${type}:${id}`,
  position: 1,
  delay: 0,
  notification_target_params: [{ type, id }],
  paging_strategy_configuration_strategy: 'default',
  paging_strategy_configuration_schedule_strategy: 'on_call_only',
});

/** The policy a track pages, when its target has one: itself, a team's, a service's or a functionality's. */
async function policyOf(ctx: WriteContext, lookups: PagingLookups, track: TrackRow): Promise<{ policyId: string | null; owners: string[] }> {
  if (track.escalation_policy_id) return { policyId: track.escalation_policy_id, owners: [] };
  if (track.target_type === 'Group') return { policyId: await lookups.teamPolicy(ctx, track.target_id), owners: [track.target_id] };
  if (track.target_type === 'Service' || track.target_type === 'Functionality') {
    const found = await lookups.catalogTarget(ctx, track.target_type === 'Service' ? 'services' : 'functionalities', track.target_id);
    return { policyId: found?.escalationPolicyId ?? null, owners: found?.owningTeamIds ?? [] };
  }
  return { policyId: null, owners: [] };
}

/**
 * Fires one due step in the caller's transaction, exactly once: the row is locked with
 * `FOR UPDATE SKIP LOCKED`, so another replica firing the same batch skips it, and marked fired
 * in the same transaction as everything it does (docs/paging.md).
 */
export async function fireStep(writer: ResourceWriter, ctx: WriteContext, keep: Keep, lookups: PagingLookups, due: { id: string; alertId: string }): Promise<void> {
  // The alert first, then the step: the order an alert change takes them (it locks the alert, then
  // deletes its steps), so the two never deadlock. An alert being changed is left to the next pass.
  const [free] = (await ctx.manager.query('SELECT id FROM alerts WHERE id = $1 AND organization_id = $2 FOR UPDATE SKIP LOCKED', [due.alertId, ctx.organizationId])) as unknown[];
  if (!free) return;
  const [step] = (await ctx.manager.query('SELECT id, alert_id, track_id, kind, level, repeat FROM alert_paging_steps WHERE id = $1 AND fired_at IS NULL FOR UPDATE SKIP LOCKED', [due.id])) as StepRow[];
  if (!step) return;
  await ctx.manager.query('UPDATE alert_paging_steps SET fired_at = $2 WHERE id = $1', [step.id, ctx.now]);
  const alert = await writer.load(ctx.manager, ctx.organizationId, step.alert_id, true);
  const access: AlertAccess = { organizationId: ctx.organizationId, actor: PAGING_ACTOR, userId: null };
  if (step.kind !== 'level') {
    // A snooze ends, or an acknowledgement times out: the alert pages again, from the first level.
    if (alert.status === (step.kind === 'wake' ? 'deferred' : 'acknowledged')) {
      await changeAlert(writer, ctx, keep, access, step.alert_id, { kind: 'update', attributes: { status: 'triggered' } });
    }
    return;
  }
  const [track] = (await ctx.manager.query('SELECT * FROM alert_paging_tracks WHERE id = $1 AND active', [step.track_id])) as TrackRow[];
  if (!track || alert.status !== 'triggered') return;
  const resolved = await resolveLevel(ctx, lookups, alert, track, step);
  if (resolved === 'deferred') return;
  const levelNumber = step.level ?? 1;
  const repeat = step.repeat ?? 0;
  const targetType = resolved?.policy ? 'EscalationPolicy' : track.target_type;
  if (!resolved) {
    await recordPagingEvent(ctx, keep, step.alert_id, { action: 'level_skipped', details: `Nothing to page at level ${levelNumber} of ${track.target_type} ${track.target_id}`, level: levelNumber, targetType, pageReason: track.page_reason });
    return;
  }
  const candidates = await lookups.recipients(ctx, resolved.level);
  const strategy = resolved.level.paging_strategy_configuration_strategy ?? 'default';
  const sequence = strategy === 'cycle' ? await pagedBefore(ctx, resolved.policy?.id ?? null, levelNumber) : 0;
  const chosen = new Set(pickRecipients([...new Set(candidates.map((c) => c.userId))], strategy, { alertId: step.alert_id, sequence }));
  const recipients = candidates.filter((c) => chosen.delete(c.userId));
  const plans = await lookups.contactPlans(ctx, recipients.map((r) => r.userId));
  const notificationType = resolved.path?.notification_type === 'quiet' ? 'quiet' : 'audible';
  const rows = recipients.flatMap((r) => {
    const plan = plans.get(r.userId);
    return plan ? deliveriesOf(plan, notificationType).map((d) => ({ ...d, recipient: r })) : [];
  });
  if (rows.length) {
    await ctx.manager.query(
      `INSERT INTO alert_notifications (id, organization_id, alert_id, run, level, repeat, user_id, channel, address, target_type, target_id, due_at, created_at)
       SELECT unnest($1::uuid[]), $2, $3, $4, $5, $6, unnest($7::int[]), unnest($8::text[]), unnest($9::text[]), unnest($10::text[]), unnest($11::text[]), unnest($12::timestamptz[]), $13
       ON CONFLICT DO NOTHING`,
      [
        rows.map(() => randomUUID()),
        ctx.organizationId,
        step.alert_id,
        track.run,
        levelNumber,
        repeat,
        rows.map((r) => r.recipient.userId),
        rows.map((r) => r.channel),
        rows.map((r) => r.address),
        rows.map((r) => r.recipient.targetType),
        rows.map((r) => r.recipient.targetId),
        rows.map((r) => new Date(ctx.now.getTime() + r.delayMinutes * 60_000)),
        ctx.now,
      ],
    );
  }
  const whom = recipients.length ? `users ${recipients.map((r) => r.userId).join(', ')}` : 'nobody (no one on call)';
  const what = resolved.policy ? `level ${levelNumber} of escalation policy ${resolved.policy.name}` : `${track.target_type} ${track.target_id}`;
  await recordPagingEvent(ctx, keep, step.alert_id, {
    action: resolved.policy ? 'escalation_policy_paged' : 'paged',
    details: `Paged ${what}${repeat ? ` (repeat ${repeat})` : ''}: ${whom}`,
    level: levelNumber,
    targetType,
    pageReason: track.page_reason,
  });
  await ctx.manager.query('UPDATE alert_paging_tracks SET level = $2, repeat = $3, updated_at = $4 WHERE id = $1', [track.id, levelNumber, repeat, ctx.now]);
  const next = resolved.path ? nextStep(resolved.path, levelNumber, repeat) : null;
  if (next) {
    await ctx.manager.query(
      `INSERT INTO alert_paging_steps (id, organization_id, alert_id, track_id, kind, level, repeat, due_at, created_at) VALUES ($1, $2, $3, $4, 'level', $5, $6, $7, $8)`,
      [randomUUID(), ctx.organizationId, step.alert_id, track.id, next.level, next.repeat, new Date(ctx.now.getTime() + next.afterMinutes * 60_000), ctx.now],
    );
  }
}

/**
 * The level a track's step pages. A policy's path is chosen by its rules the first time the
 * track fires and kept; its `initial_delay` postpones that first level ('deferred': a new step
 * was written). Without a policy: the user, or the members of the target's owning teams.
 */
async function resolveLevel(ctx: WriteContext, lookups: PagingLookups, alert: Row, track: TrackRow, step: StepRow): Promise<Resolved | 'deferred' | null> {
  const { policyId, owners } = await policyOf(ctx, lookups, track);
  if (policyId) {
    const plan = await lookups.plan(ctx, policyId);
    if (!plan) return null;
    const chosen = track.escalation_path_id ? plan.paths.find((p) => p.id === track.escalation_path_id) : choosePath(plan, factsOf(alert), ctx.now);
    if (!chosen) return null;
    if (!track.escalation_path_id) {
      // A policy of path-less levels has an implicit default path (id null): chosen again each time, the same.
      await ctx.manager.query('UPDATE alert_paging_tracks SET escalation_policy_id = $2, escalation_path_id = $3 WHERE id = $1', [track.id, policyId, chosen.id]);
      if (chosen.initial_delay > 0 && track.level === 0) {
        await ctx.manager.query(
          `INSERT INTO alert_paging_steps (id, organization_id, alert_id, track_id, kind, level, repeat, due_at, created_at) VALUES ($1, $2, $3, $4, 'level', $5, 0, $6, $7)`,
          [randomUUID(), ctx.organizationId, step.alert_id, track.id, step.level ?? 1, new Date(ctx.now.getTime() + chosen.initial_delay * 60_000), ctx.now],
        );
        return 'deferred';
      }
    }
    const level = chosen.levels[(step.level ?? 1) - 1];
    return level ? { level, path: chosen, policy: plan.policy } : null;
  }
  if ((step.level ?? 1) !== 1) return null;
  if (track.target_type === 'User') return { level: levelOf('user', track.target_id), path: null, policy: null };
  if (owners.length === 0) return null;
  return { level: { ...levelOf('team', owners[0]), notification_target_params: owners.map((id) => ({ type: 'team', id })) }, path: null, policy: null };
}

/** How many alerts this policy's level paged before (the `cycle` strategy's turn). */
async function pagedBefore(ctx: WriteContext, policyId: string | null, level: number): Promise<number> {
  if (!policyId) return 0;
  const [row] = (await ctx.manager.query(
    'SELECT count(DISTINCT alert_id)::int AS n FROM alert_notifications n WHERE organization_id = $1 AND level = $2 AND EXISTS (SELECT 1 FROM alert_paging_tracks t WHERE t.alert_id = n.alert_id AND t.escalation_policy_id = $3)',
    [ctx.organizationId, level, policyId],
  )) as { n: number }[];
  return row.n;
}
