/**
 * The incident lifecycle as a pure state machine: which status an incident may move to from
 * which, what each move stamps and clears, and why a refused move is refused. The status
 * operations (`PUT /v1/incidents/{id}/mitigate`, ...) and a PUT of `status` both call
 * `transition`, so the two can never disagree. The tables and the decisions behind them:
 * docs/incident-lifecycle.md.
 */

/** The reference's `new_incident.status` enum. */
export const INCIDENT_STATUSES = [
  'in_triage',
  'started',
  'detected',
  'acknowledged',
  'mitigated',
  'resolved',
  'closed',
  'cancelled',
  'scheduled',
  'in_progress',
  'completed',
] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** The reference's `new_incident.kind` enum. */
export const INCIDENT_KINDS = ['test', 'test_sub', 'example', 'example_sub', 'normal', 'normal_sub', 'backfilled', 'scheduled', 'scheduled_sub'] as const;
export type IncidentKind = (typeof INCIDENT_KINDS)[number];

/** The status operations of the API (`/v1/incidents/{id}/<operation>`). */
export const INCIDENT_OPERATIONS = ['mitigate', 'resolve', 'cancel', 'in_triage', 'restart'] as const;
export type IncidentOperation = (typeof INCIDENT_OPERATIONS)[number];

/** The incident's `*_at` attributes the lifecycle maintains (`scheduled_for/until` are the client's plan). */
export const LIFECYCLE_TIMESTAMPS = [
  'in_triage_at',
  'started_at',
  'detected_at',
  'acknowledged_at',
  'mitigated_at',
  'resolved_at',
  'closed_at',
  'cancelled_at',
] as const;
export type LifecycleTimestamp = (typeof LIFECYCLE_TIMESTAMPS)[number];

/**
 * Stamps of outcomes, which hold only while the status does: a restarted incident is no longer
 * mitigated. The others record when a stage was first reached and are never cleared.
 */
export const OUTCOME_TIMESTAMPS: readonly LifecycleTimestamp[] = ['mitigated_at', 'resolved_at', 'closed_at', 'cancelled_at'];

export interface Lifecycle {
  /** How a refusal names the incident: "An incident", "A scheduled maintenance". */
  noun: string;
  /** Every status of this lifecycle, with the stamps an incident in it holds. */
  stamps: Partial<Record<IncidentStatus, readonly LifecycleTimestamp[]>>;
  /** The transition table: from → the other statuses it may move to. Staying put is a no-op. */
  moves: Partial<Record<IncidentStatus, readonly IncidentStatus[]>>;
  /** The status each operation moves to; an operation absent here does not apply. */
  operations: Partial<Record<IncidentOperation, IncidentStatus>>;
  /** Why a move out of a status is refused, where the status itself is the reason. */
  leaving: Partial<Record<IncidentStatus, string>>;
  /** Why a move into a status is refused, otherwise. */
  entering: Partial<Record<IncidentStatus, string>>;
  /** Why a status or an operation this lifecycle does not have is refused. */
  otherwise: string;
}

const OPEN = ['in_triage', 'started', 'detected', 'acknowledged', 'mitigated'] as const satisfies readonly IncidentStatus[];
/** An open incident may go to any other open status (forward, or back when a step did not hold), resolve, or cancel. */
const fromOpen = (from: IncidentStatus): IncidentStatus[] => [...OPEN.filter((s) => s !== from), 'resolved', 'cancelled'];
const RESTART_FIRST = 'restart it first';

/** Incidents of every kind but the scheduled ones. */
export const INCIDENT_LIFECYCLE: Lifecycle = {
  noun: 'An incident',
  stamps: {
    in_triage: ['in_triage_at'],
    started: ['started_at'],
    detected: ['started_at', 'detected_at'],
    acknowledged: ['started_at', 'acknowledged_at'],
    mitigated: ['started_at', 'mitigated_at'],
    resolved: ['started_at', 'mitigated_at', 'resolved_at'],
    closed: ['started_at', 'mitigated_at', 'resolved_at', 'closed_at'],
    cancelled: ['cancelled_at'],
  },
  moves: {
    in_triage: fromOpen('in_triage'),
    started: fromOpen('started'),
    detected: fromOpen('detected'),
    acknowledged: fromOpen('acknowledged'),
    mitigated: fromOpen('mitigated'),
    resolved: ['started', 'closed'],
    closed: [],
    cancelled: ['started'],
  },
  operations: { mitigate: 'mitigated', resolve: 'resolved', cancel: 'cancelled', in_triage: 'in_triage', restart: 'started' },
  leaving: { resolved: RESTART_FIRST, cancelled: RESTART_FIRST, closed: 'a closed incident is final: declare a new incident instead' },
  entering: { closed: 'resolve it first' },
  otherwise: 'only scheduled maintenances use that status',
};

/** Incidents of kind `scheduled` and `scheduled_sub`: planned maintenance windows. */
export const MAINTENANCE_LIFECYCLE: Lifecycle = {
  noun: 'A scheduled maintenance',
  // The reference has no in_progress_at or completed_at: the incident's own start and
  // resolution stamps carry them, so durations read the same for every kind.
  stamps: {
    scheduled: [],
    in_progress: ['started_at'],
    completed: ['started_at', 'resolved_at'],
    cancelled: ['cancelled_at'],
  },
  moves: {
    scheduled: ['in_progress', 'cancelled'],
    in_progress: ['completed', 'cancelled'],
    completed: [],
    cancelled: [],
  },
  operations: { resolve: 'completed', cancel: 'cancelled' },
  leaving: { completed: 'a completed maintenance is final', cancelled: 'a cancelled maintenance is final' },
  entering: { completed: 'put it in progress first' },
  otherwise: 'scheduled maintenances only move scheduled → in_progress → completed, or are cancelled',
};

export function lifecycleOf(kind: IncidentKind): Lifecycle {
  return kind === 'scheduled' || kind === 'scheduled_sub' ? MAINTENANCE_LIFECYCLE : INCIDENT_LIFECYCLE;
}

export type Transition =
  | {
      ok: true;
      status: IncidentStatus;
      /** False when the incident already has that status: nothing to stamp or announce. */
      changed: boolean;
      /** Stamp each with the current time when it is empty (a time it already holds is kept). */
      sets: LifecycleTimestamp[];
      /** Set each to null. */
      clears: LifecycleTimestamp[];
    }
  | { ok: false; detail: string };

const STATUS_WORDING: Partial<Record<IncidentStatus, string>> = { in_triage: 'in triage', in_progress: 'in progress' };

/** "cannot be <verb>", by target status and by operation. */
const STATUS_VERBS: Record<IncidentStatus, string> = {
  in_triage: 'moved to triage',
  started: 'started',
  detected: 'marked detected',
  acknowledged: 'acknowledged',
  mitigated: 'mitigated',
  resolved: 'resolved',
  closed: 'closed',
  cancelled: 'cancelled',
  scheduled: 'scheduled',
  in_progress: 'put in progress',
  completed: 'completed',
};
const OPERATION_VERBS: Record<IncidentOperation, string> = {
  mitigate: 'mitigated',
  resolve: 'resolved',
  cancel: 'cancelled',
  in_triage: 'moved to triage',
  restart: 'restarted',
};

const isOperation = (to: string): to is IncidentOperation => (INCIDENT_OPERATIONS as readonly string[]).includes(to);

/**
 * Moves an incident of `current.kind` from `current.status` to a status, or by an operation
 * (`in_triage` is both, with the same meaning).
 */
export function transition(current: { status: IncidentStatus; kind: IncidentKind }, to: IncidentStatus | IncidentOperation): Transition {
  const lifecycle = lifecycleOf(current.kind);
  const from = current.status;
  const held = lifecycle.stamps[from];
  if (!held) return { ok: false, detail: `An incident of kind ${current.kind} cannot have the status ${from}; ${lifecycle.otherwise}` };
  const target = isOperation(to) ? lifecycle.operations[to] : to;
  const refuse = (hint: string): Transition => ({
    ok: false,
    detail: `${lifecycle.noun} that is ${STATUS_WORDING[from] ?? from} cannot be ${isOperation(to) ? OPERATION_VERBS[to] : STATUS_VERBS[to]}; ${hint}`,
  });
  const entered = target && lifecycle.stamps[target];
  if (!target || !entered) return refuse(lifecycle.otherwise);
  if (target === from) return { ok: true, status: from, changed: false, sets: [], clears: [] };
  if (!lifecycle.moves[from]?.includes(target)) return refuse(lifecycle.leaving[from] ?? lifecycle.entering[target] ?? lifecycle.otherwise);
  return {
    ok: true,
    status: target,
    changed: true,
    sets: LIFECYCLE_TIMESTAMPS.filter((t) => entered.includes(t) && !held.includes(t)),
    clears: LIFECYCLE_TIMESTAMPS.filter((t) => held.includes(t) && !entered.includes(t) && OUTCOME_TIMESTAMPS.includes(t)),
  };
}
