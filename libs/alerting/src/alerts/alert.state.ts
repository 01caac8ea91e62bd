/**
 * The alert lifecycle as a pure state machine: which status an alert may move to from which, by
 * an operation (`POST /v1/alerts/{id}/acknowledge`, `/resolve`, `/snooze`, `/escalate`) or by
 * setting `status` (PATCH), what each move stamps and clears, what it does to paging, and why a
 * refused move is refused. Both paths call `transition`, so they can never disagree. The tables
 * and the decisions behind them: docs/alert-lifecycle.md.
 */
import { ALERT_EVENTS, type AlertEventType } from '../events';

/** The reference's `alert.status` enum. */
export const ALERT_STATUSES = ['open', 'triggered', 'acknowledged', 'resolved', 'deferred'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** The status operations of the API (`POST /v1/alerts/{id}/<operation>`). */
export const ALERT_OPERATIONS = ['acknowledge', 'resolve', 'snooze', 'escalate'] as const;
export type AlertOperation = (typeof ALERT_OPERATIONS)[number];

/** The alert's `*_at` attributes the lifecycle maintains (the reference's `alert` has these two). */
export const ALERT_TIMESTAMPS = ['started_at', 'ended_at'] as const;
export type AlertTimestamp = (typeof ALERT_TIMESTAMPS)[number];

/** The reference's `snooze_alert.delay_minutes` bounds (one minute to one week). */
export const SNOOZE_MINUTES = { minimum: 1, maximum: 10080 } as const;

/** Statuses in which paging is pending (notifications, escalation timers, a snooze's re-trigger). */
export const PAGING_STATUSES: readonly AlertStatus[] = ['triggered', 'acknowledged', 'deferred'];

/** The stamps an alert in each status holds. `started_at` is never cleared ("only when empty" keeps the first time). */
export const ALERT_STAMPS: Record<AlertStatus, readonly AlertTimestamp[]> = {
  open: ['started_at'],
  triggered: ['started_at'],
  acknowledged: ['started_at'],
  deferred: ['started_at'],
  resolved: ['started_at', 'ended_at'],
};

/** The transition table for a PATCH of `status`: from → the other statuses it may be set to. Staying put is a no-op. */
export const ALERT_MOVES: Record<AlertStatus, readonly AlertStatus[]> = {
  open: ['triggered', 'resolved'],
  triggered: ['open', 'acknowledged', 'resolved'],
  acknowledged: ['open', 'triggered', 'resolved'],
  deferred: ['open', 'triggered', 'acknowledged', 'resolved'],
  resolved: ['open', 'triggered'],
};

/**
 * The operation table: from → the status the operation leads to, `'='` for an idempotent no-op,
 * or the code of the refusal (REFUSALS). `escalate` and `snooze` are never no-ops: escalating a
 * triggered alert pages the next level, snoozing a deferred one restarts its delay.
 */
export const ALERT_OPERATION_MOVES: Record<AlertOperation, Record<AlertStatus, AlertStatus | '=' | RefusalCode>> = {
  acknowledge: { open: 'not_paging', triggered: 'acknowledged', acknowledged: '=', deferred: 'acknowledged', resolved: 'ended' },
  resolve: { open: 'resolved', triggered: 'resolved', acknowledged: 'resolved', deferred: 'resolved', resolved: '=' },
  snooze: { open: 'not_paging', triggered: 'deferred', acknowledged: 'deferred', deferred: 'deferred', resolved: 'ended' },
  escalate: { open: 'triggered', triggered: 'triggered', acknowledged: 'triggered', deferred: 'triggered', resolved: 'triggered' },
};

/** Why a move is refused, with the HTTP status the API answers (the reference's 400 for acknowledging an open alert). */
export const REFUSALS = {
  not_paging: { status: 400, hint: 'it is not paging anyone: escalate it to page, or resolve it' },
  ended: { status: 422, hint: 'it is resolved: escalate it, or set its status to open or triggered, to reopen it' },
  defer_by_snooze: { status: 422, hint: 'snooze it with delay_minutes (POST /v1/alerts/{id}/snooze) instead' },
  snooze_minutes: { status: 400, hint: `delay_minutes must be an integer from ${SNOOZE_MINUTES.minimum} to ${SNOOZE_MINUTES.maximum}` },
} as const;
export type RefusalCode = keyof typeof REFUSALS;

/** What a move does to the alert's pending paging (the paging issue consumes the events). */
export type PagingEffect =
  /** Page (the first level, or the next one when already triggered). */
  | 'page'
  /** Cancel pending notifications and timers. */
  | 'cancel'
  /** Cancel pending notifications; re-trigger after the snooze. */
  | 'defer'
  | 'none';

/** The domain event a move announces beside `alert.updated`. */
export type AlertLifecycleEvent = Exclude<AlertEventType, typeof ALERT_EVENTS.pagingCancelled> | null;

export type AlertMove = { status: AlertStatus } | { operation: Exclude<AlertOperation, 'snooze'> } | { operation: 'snooze'; delayMinutes: number };

export type AlertTransition =
  | {
      ok: true;
      status: AlertStatus;
      /** False for a no-op: nothing to stamp, write or announce. */
      changed: boolean;
      /** Stamp each with the current time when it is empty. */
      sets: AlertTimestamp[];
      /** Set each to null. */
      clears: AlertTimestamp[];
      paging: PagingEffect;
      event: AlertLifecycleEvent;
      /** A snooze: how long the alert stays deferred. */
      delayMinutes?: number;
    }
  | { ok: false; status: 400 | 422; code: RefusalCode; detail: string };

const STATUS_VERBS: Record<AlertStatus, string> = {
  open: 'set to open',
  triggered: 'triggered',
  acknowledged: 'acknowledged',
  resolved: 'resolved',
  deferred: 'deferred',
};
const OPERATION_VERBS: Record<AlertOperation, string> = { acknowledge: 'acknowledged', resolve: 'resolved', snooze: 'snoozed', escalate: 'escalated' };
const OPERATION_EVENTS: Record<AlertOperation, AlertLifecycleEvent> = {
  acknowledge: ALERT_EVENTS.acknowledged,
  resolve: ALERT_EVENTS.resolved,
  snooze: ALERT_EVENTS.snoozed,
  escalate: ALERT_EVENTS.escalated,
};
/** A status set directly announces what the operation to that status would. */
const STATUS_EVENTS: Record<AlertStatus, AlertLifecycleEvent> = {
  open: null,
  triggered: ALERT_EVENTS.escalated,
  acknowledged: ALERT_EVENTS.acknowledged,
  resolved: ALERT_EVENTS.resolved,
  deferred: ALERT_EVENTS.snoozed,
};

const refuse = (from: AlertStatus, verb: string, code: RefusalCode): AlertTransition => ({
  ok: false,
  status: REFUSALS[code].status,
  code,
  detail: `An alert that is ${from} cannot be ${verb}; ${REFUSALS[code].hint}`,
});

function pagingOf(from: AlertStatus, to: AlertStatus, escalating: boolean): PagingEffect {
  if (to === 'triggered') return from === 'triggered' && !escalating ? 'none' : 'page';
  if (to === 'deferred') return 'defer';
  return PAGING_STATUSES.includes(from) && from !== to ? 'cancel' : 'none';
}

/** Moves an alert from `from` by an operation or by setting `status`. */
export function transition(from: AlertStatus, move: AlertMove): AlertTransition {
  let target: AlertStatus;
  let event: AlertLifecycleEvent;
  let escalating = false;
  let delayMinutes: number | undefined;
  if ('operation' in move) {
    const cell = ALERT_OPERATION_MOVES[move.operation][from];
    if (move.operation === 'snooze') {
      const m = move.delayMinutes;
      if (!Number.isInteger(m) || m < SNOOZE_MINUTES.minimum || m > SNOOZE_MINUTES.maximum) return refuse(from, 'snoozed', 'snooze_minutes');
      delayMinutes = m;
    }
    if (cell in REFUSALS) return refuse(from, OPERATION_VERBS[move.operation], cell as RefusalCode);
    if (cell === '=') return { ok: true, status: from, changed: false, sets: [], clears: [], paging: 'none', event: null };
    target = cell as AlertStatus;
    event = OPERATION_EVENTS[move.operation];
    escalating = move.operation === 'escalate';
  } else {
    target = move.status;
    if (target === from) return { ok: true, status: from, changed: false, sets: [], clears: [], paging: 'none', event: null };
    if (target === 'deferred') return refuse(from, STATUS_VERBS[target], 'defer_by_snooze');
    if (!ALERT_MOVES[from].includes(target)) return refuse(from, STATUS_VERBS[target], from === 'resolved' ? 'ended' : 'not_paging');
    event = STATUS_EVENTS[target];
  }
  const held = ALERT_STAMPS[from];
  const entered = ALERT_STAMPS[target];
  return {
    ok: true,
    status: target,
    changed: true,
    sets: ALERT_TIMESTAMPS.filter((t) => entered.includes(t) && !held.includes(t)),
    clears: ALERT_TIMESTAMPS.filter((t) => held.includes(t) && !entered.includes(t)),
    paging: pagingOf(from, target, escalating),
    event,
    ...(delayMinutes === undefined ? {} : { delayMinutes }),
  };
}
