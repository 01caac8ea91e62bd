import { randomUUID } from 'node:crypto';
import { deliveriesOf } from '@taproot/identity';
import type { EventActor } from '@taproot/messaging';
import { choosePath, deferredUntil, nextStep, pathAfterDeferral, pickRecipients, type AlertFacts, type EscalationPlan, type PlanLevel, type PlanPath } from '@taproot/on-call';
import type { Keep, ResourceWriter, Row, WriteContext } from '@taproot/resources';
import type { EntityManager } from 'typeorm';
import { changeAlert, recordPagingEvents, type AlertAccess, type PagingEventLine } from '../alerts/alert-writes';
import { evaluateJsonPath } from '../ingestion/json-path';
import type { PagingLookups } from './paging-lookups';
import { insertSteps, type PagingStep } from './paging-schedule';

/** The paging engine acts as the system (alert events' `source`: system). */
export const PAGING_ACTOR: EventActor = { kind: 'system', id: null };

interface StepRow {
  id: string;
  organization_id: string;
  alert_id: string;
  track_id: string | null;
  kind: 'level' | 'wake' | 'retrigger';
  level: number | null;
  repeat: number | null;
}

/** A due step this transaction holds, with its alert (locked too) and its track when active. */
export interface ClaimedStep extends StepRow {
  alert: Row;
  track: TrackRow | null;
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
    // The custom field values its alert source gave the alert at ingestion (docs/alert-fields.md).
    fieldValues: (fieldId) => ((alert.alert_field_values as { alert_field_id: string; value: string }[] | null) ?? []).filter((v) => v.alert_field_id === fieldId.toLowerCase()).map((v) => v.value),
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
 * Claims up to `limit` due steps for the caller's transaction: the steps with `FOR UPDATE SKIP
 * LOCKED`, so replicas firing at once take different steps and each fires once, then their alerts
 * with `FOR NO KEY UPDATE SKIP LOCKED`. Neither lock ever waits, so the engine never deadlocks
 * with an alert change (which locks the alert FOR UPDATE, then deletes its steps): a step whose
 * alert is being changed is left for the next pass, and the change waits for this transaction's
 * end at most. NO KEY UPDATE, not UPDATE, because recording sends holds its alerts FOR KEY SHARE
 * (as does every insert of an alert's event): FOR UPDATE would skip each of those alerts, whose
 * steps then waited a whole pass, the lateness of a paging storm.
 */
export async function claimDueSteps(manager: EntityManager, now: Date, limit: number): Promise<ClaimedStep[]> {
  const steps = (await manager.query(
    'SELECT id, organization_id, alert_id, track_id, kind, level, repeat FROM alert_paging_steps WHERE fired_at IS NULL AND due_at <= $1 ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED',
    [now, limit],
  )) as StepRow[];
  if (steps.length === 0) return [];
  const alerts = (await manager.query('SELECT * FROM alerts WHERE id = ANY($1::uuid[]) FOR NO KEY UPDATE SKIP LOCKED', [[...new Set(steps.map((s) => s.alert_id))]])) as Row[];
  const alertOf = new Map(alerts.map((a) => [String(a.id), a]));
  const free = steps.filter((s) => alertOf.get(s.alert_id)?.organization_id === s.organization_id);
  const trackIds = [...new Set(free.flatMap((s) => (s.track_id ? [s.track_id] : [])))];
  const tracks = trackIds.length ? ((await manager.query('SELECT * FROM alert_paging_tracks WHERE id = ANY($1::uuid[]) AND active', [trackIds])) as TrackRow[]) : [];
  const trackOf = new Map(tracks.map((t) => [t.id, t]));
  return free.map((s) => ({ ...s, alert: alertOf.get(s.alert_id)!, track: (s.track_id && trackOf.get(s.track_id)) || null }));
}

/** A notification row a fired level writes (one recipient, one channel). */
interface NotificationRow {
  alertId: string;
  run: number;
  level: number;
  repeat: number;
  userId: number;
  channel: string;
  address: string;
  targetType: string;
  targetId: string;
  dueAt: Date;
}

/**
 * The writes of the steps fired in one transaction, gathered so each kind is one statement
 * however many steps fired (a storm fires hundreds at once): `flush` writes them.
 */
class PagingWrites {
  notifications: NotificationRow[] = [];
  lines: { alertId: string; line: PagingEventLine }[] = [];
  trackLevels: { id: string; level: number; repeat: number }[] = [];
  trackPaths: { id: string; policyId: string; pathId: string | null }[] = [];
  steps: PagingStep[] = [];
  /** Notification rows written by the flushes so far. */
  written = 0;
  /**
   * The `cycle` strategy's turns, by policy and level: counted in the database once per pass,
   * then here for the alerts this pass pages (a storm fires many steps of one level at once).
   */
  readonly #turns = new Map<string, { next: number; alerts: Set<string> }>();

  constructor(
    private readonly ctx: WriteContext,
    private readonly keep: Keep,
  ) {}

  /** The turn of a `cycle` level's policy and level in this pass; `taken` counts an alert's page at it. */
  async turn(policyId: string | null, level: number): Promise<{ sequence: number; taken: (alertId: string) => void }> {
    const key = `${policyId}:${level}`;
    let turn = this.#turns.get(key);
    if (!turn) this.#turns.set(key, (turn = { next: await pagedBefore(this.ctx, policyId, level), alerts: new Set() }));
    const found = turn;
    return {
      sequence: found.next,
      taken: (alertId) => {
        if (found.alerts.has(alertId)) return;
        found.alerts.add(alertId);
        found.next += 1;
      },
    };
  }

  async flush(): Promise<void> {
    const { ctx, keep } = this;
    const { manager, organizationId, now } = ctx;
    if (this.trackPaths.length) {
      await manager.query(
        `UPDATE alert_paging_tracks t SET escalation_policy_id = v.policy_id, escalation_path_id = v.path_id
           FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS v(id, policy_id, path_id) WHERE t.id = v.id AND t.organization_id = $4`,
        [this.trackPaths.map((t) => t.id), this.trackPaths.map((t) => t.policyId), this.trackPaths.map((t) => t.pathId), organizationId],
      );
    }
    const rows = this.notifications;
    if (rows.length) {
      await manager.query(
        `INSERT INTO alert_notifications (id, organization_id, alert_id, run, level, repeat, user_id, channel, address, target_type, target_id, due_at, created_at)
         SELECT unnest($1::uuid[]), $2, unnest($3::uuid[]), unnest($4::int[]), unnest($5::int[]), unnest($6::int[]), unnest($7::int[]), unnest($8::text[]), unnest($9::text[]), unnest($10::text[]), unnest($11::text[]), unnest($12::timestamptz[]), $13
         ON CONFLICT DO NOTHING`,
        [
          rows.map(() => randomUUID()),
          organizationId,
          rows.map((r) => r.alertId),
          rows.map((r) => r.run),
          rows.map((r) => r.level),
          rows.map((r) => r.repeat),
          rows.map((r) => r.userId),
          rows.map((r) => r.channel),
          rows.map((r) => r.address),
          rows.map((r) => r.targetType),
          rows.map((r) => r.targetId),
          rows.map((r) => r.dueAt),
          now,
        ],
      );
    }
    await recordPagingEvents(ctx, keep, this.lines);
    if (this.trackLevels.length) {
      await manager.query(
        `UPDATE alert_paging_tracks t SET level = v.level, repeat = v.repeat, updated_at = $4
           FROM unnest($1::uuid[], $2::int[], $3::int[]) AS v(id, level, repeat) WHERE t.id = v.id AND t.organization_id = $5`,
        [this.trackLevels.map((t) => t.id), this.trackLevels.map((t) => t.level), this.trackLevels.map((t) => t.repeat), now, organizationId],
      );
    }
    await insertSteps(ctx, this.steps);
    this.written += rows.length;
    this.notifications = [];
    this.lines = [];
    this.trackLevels = [];
    this.trackPaths = [];
    this.steps = [];
  }
}

/**
 * Fires claimed steps of the context's organization in the caller's transaction, each exactly
 * once (marked fired with everything it does; docs/paging.md): a level pages its recipients,
 * writes its timeline line and the next step; a snooze's end or an acknowledgement's timeout
 * triggers the alert again. Answers the notifications written.
 */
export async function fireSteps(writer: ResourceWriter, ctx: WriteContext, keep: Keep, lookups: PagingLookups, steps: readonly ClaimedStep[]): Promise<number> {
  await ctx.manager.query('UPDATE alert_paging_steps SET fired_at = $2 WHERE id = ANY($1::uuid[]) AND organization_id = $3', [steps.map((s) => s.id), ctx.now, ctx.organizationId]);
  const writes = new PagingWrites(ctx, keep);
  for (const step of steps) if (step.kind === 'level') await pageLevel(ctx, lookups, writes, step);
  await writes.flush();
  // A snooze ends, or an acknowledgement times out: the alert pages again, from the first level.
  const access: AlertAccess = { organizationId: ctx.organizationId, actor: PAGING_ACTOR, userId: null };
  for (const step of steps) {
    if (step.kind !== 'level' && step.alert.status === (step.kind === 'wake' ? 'deferred' : 'acknowledged')) {
      await changeAlert(writer, ctx, keep, access, step.alert_id, { kind: 'update', attributes: { status: 'triggered' } });
    }
  }
  return writes.written;
}

/** What a level step does, gathered into `writes`. */
async function pageLevel(ctx: WriteContext, lookups: PagingLookups, writes: PagingWrites, step: ClaimedStep): Promise<void> {
  const { alert, track } = step;
  if (!track || alert.status !== 'triggered') return;
  const resolved = await resolveLevel(ctx, lookups, writes, alert, track, step);
  if (resolved === 'deferred') return;
  const levelNumber = step.level ?? 1;
  const repeat = step.repeat ?? 0;
  const targetType = resolved?.policy ? 'EscalationPolicy' : track.target_type;
  const line = (l: Omit<PagingEventLine, 'level' | 'targetType' | 'pageReason'>) => writes.lines.push({ alertId: step.alert_id, line: { ...l, level: levelNumber, targetType, pageReason: track.page_reason } });
  if (!resolved) {
    line({ action: 'level_skipped', details: `Nothing to page at level ${levelNumber} of ${track.target_type} ${track.target_id}` });
    return;
  }
  const candidates = await lookups.recipients(ctx, resolved.level);
  const strategy = resolved.level.paging_strategy_configuration_strategy ?? 'default';
  // The turn counts the alerts this level paged before, the ones paged earlier in this pass included.
  const turn = strategy === 'cycle' ? await writes.turn(resolved.policy?.id ?? null, levelNumber) : null;
  const chosen = new Set(pickRecipients([...new Set(candidates.map((c) => c.userId))], strategy, { alertId: step.alert_id, sequence: turn?.sequence ?? 0 }));
  const recipients = candidates.filter((c) => chosen.delete(c.userId));
  const plans = await lookups.contactPlans(ctx, recipients.map((r) => r.userId));
  const notificationType = resolved.path?.notification_type === 'quiet' ? 'quiet' : 'audible';
  const before = writes.notifications.length;
  for (const r of recipients) {
    const plan = plans.get(r.userId);
    for (const d of plan ? deliveriesOf(plan, notificationType) : []) {
      writes.notifications.push({
        alertId: step.alert_id,
        run: track.run,
        level: levelNumber,
        repeat,
        userId: r.userId,
        channel: d.channel,
        address: d.address,
        targetType: r.targetType,
        targetId: r.targetId,
        dueAt: new Date(ctx.now.getTime() + d.delayMinutes * 60_000),
      });
    }
  }
  // A repeat's alert was counted when it first paged this level (pagedBefore counts alerts, not pages).
  if (turn && repeat === 0 && writes.notifications.length > before) turn.taken(step.alert_id);
  const whom = recipients.length ? `users ${recipients.map((r) => r.userId).join(', ')}` : 'nobody (no one on call)';
  const what = resolved.policy ? `level ${levelNumber} of escalation policy ${resolved.policy.name}` : `${track.target_type} ${track.target_id}`;
  line({ action: resolved.policy ? 'escalation_policy_paged' : 'paged', details: `Paged ${what}${repeat ? ` (repeat ${repeat})` : ''}: ${whom}` });
  writes.trackLevels.push({ id: track.id, level: levelNumber, repeat });
  const next = resolved.path ? nextStep(resolved.path, levelNumber, repeat) : null;
  if (next) writes.steps.push({ alertId: step.alert_id, trackId: track.id, kind: 'level', level: next.level, repeat: next.repeat, dueAt: new Date(ctx.now.getTime() + next.afterMinutes * 60_000) });
}

/**
 * The level a track's step pages. A policy's path is chosen by its rules the first time the
 * track fires and kept; its `initial_delay` postpones that first level ('deferred': a new step
 * was written). Without a policy: the user, or the members of the target's owning teams.
 */
async function resolveLevel(ctx: WriteContext, lookups: PagingLookups, writes: PagingWrites, alert: Row, track: TrackRow, step: StepRow): Promise<Resolved | 'deferred' | null> {
  const { policyId, owners } = await policyOf(ctx, lookups, track);
  if (policyId) {
    const plan = await lookups.plan(ctx, policyId);
    if (!plan) return null;
    const chosen = track.escalation_path_id ? plan.paths.find((p) => p.id === track.escalation_path_id) : choosePath(plan, factsOf(alert), ctx.now);
    if (!chosen) return null;
    if (chosen.path_type === 'deferral') return defer(ctx, writes, { plan, deferral: chosen, track, step });
    if (!track.escalation_path_id) {
      // A policy of path-less levels has an implicit default path (id null): chosen again each time, the same.
      writes.trackPaths.push({ id: track.id, policyId, pathId: chosen.id });
      if (chosen.initial_delay > 0 && track.level === 0) {
        writes.steps.push({ alertId: step.alert_id, trackId: track.id, kind: 'level', level: step.level ?? 1, dueAt: new Date(ctx.now.getTime() + chosen.initial_delay * 60_000) });
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

/**
 * A deferral path holds the alert back: the step comes due again when the path's window ends, on
 * the path it names (`execute_path`, after that path's initial delay) or on the one the rules
 * choose then (`re_evaluate`). The alert stays triggered meanwhile; its timeline says why nobody
 * was paged yet.
 */
function defer(ctx: WriteContext, writes: PagingWrites, held: { plan: EscalationPlan; deferral: PlanPath; track: TrackRow; step: StepRow }): 'deferred' {
  const { plan, deferral, track, step } = held;
  const until = deferredUntil(deferral, ctx.now)!;
  const after = pathAfterDeferral(plan, deferral);
  const level = step.level ?? 1;
  writes.trackPaths.push({ id: track.id, policyId: plan.policy.id, pathId: after?.id ?? null });
  const delay = after && track.level === 0 ? after.initial_delay * 60_000 : 0;
  writes.steps.push({ alertId: step.alert_id, trackId: track.id, kind: 'level', level, dueAt: new Date(until.getTime() + delay) });
  const then = after ? `then path ${after.name}` : 'then the path its rules choose';
  writes.lines.push({
    alertId: step.alert_id,
    line: { action: 'deferred', details: `Deferred by path ${deferral.name} of escalation policy ${plan.policy.name} until ${until.toISOString()}, ${then}`, level, targetType: 'EscalationPolicy', pageReason: track.page_reason },
  });
  return 'deferred';
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
