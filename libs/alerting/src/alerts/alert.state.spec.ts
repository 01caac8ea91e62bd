import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { ALERT_OPERATIONS, ALERT_STATUSES, transition, type AlertMove, type AlertStatus, type AlertTransition } from './alert.state';

/*
 * The expected alert lifecycle, written out by hand (docs/alert-lifecycle.md), not read from the
 * implementation's tables. A cell is:
 *   a status  the move is allowed and leads there        =  a no-op
 *   N  refused with 400: it is not paging anyone        E  refused with 422: it is resolved
 *   D  refused with 422: deferring takes a snooze (with delay_minutes)
 * followed, for an allowed move, by its paging effect: p page, c cancel, d defer, - none.
 */
type Cell = `${AlertStatus}/${'p' | 'c' | 'd' | '-'}` | '=' | 'N' | 'E' | 'D';

const REFUSED: Record<'N' | 'E' | 'D', { status: number; detail: RegExp }> = {
  N: { status: 400, detail: /^An alert that is open cannot be \w[\w ]*; it is not paging anyone: escalate it to page, or resolve it$/ },
  E: { status: 422, detail: /^An alert that is resolved cannot be \w[\w ]*; it is resolved: escalate it, or set its status to open or triggered, to reopen it$/ },
  D: { status: 422, detail: /cannot be deferred; snooze it with delay_minutes \(POST \/v1\/alerts\/\{id\}\/snooze\) instead$/ },
};

const STATUS_MOVES: Record<AlertStatus, Record<AlertStatus, Cell>> = {
  //            open          triggered          acknowledged          resolved          deferred
  open:         { open: '=',      triggered: 'triggered/p', acknowledged: 'N',              resolved: 'resolved/-', deferred: 'D' },
  triggered:    { open: 'open/c', triggered: '=',           acknowledged: 'acknowledged/c', resolved: 'resolved/c', deferred: 'D' },
  acknowledged: { open: 'open/c', triggered: 'triggered/p', acknowledged: '=',              resolved: 'resolved/c', deferred: 'D' },
  deferred:     { open: 'open/c', triggered: 'triggered/p', acknowledged: 'acknowledged/c', resolved: 'resolved/c', deferred: '=' },
  resolved:     { open: 'open/-', triggered: 'triggered/p', acknowledged: 'E',              resolved: '=',          deferred: 'D' },
};

const OPERATION_MOVES: Record<AlertStatus, Record<(typeof ALERT_OPERATIONS)[number], Cell>> = {
  //            acknowledge                     resolve                 snooze                  escalate
  open:         { acknowledge: 'N',              resolve: 'resolved/-', snooze: 'N',            escalate: 'triggered/p' },
  triggered:    { acknowledge: 'acknowledged/c', resolve: 'resolved/c', snooze: 'deferred/d',   escalate: 'triggered/p' },
  acknowledged: { acknowledge: '=',              resolve: 'resolved/c', snooze: 'deferred/d',   escalate: 'triggered/p' },
  deferred:     { acknowledge: 'acknowledged/c', resolve: 'resolved/c', snooze: 'deferred/d',   escalate: 'triggered/p' },
  resolved:     { acknowledge: 'E',              resolve: '=',          snooze: 'E',            escalate: 'triggered/p' },
};

const EVENTS: Record<string, string | null> = {
  acknowledge: 'alert.acknowledged', resolve: 'alert.resolved', snooze: 'alert.snoozed', escalate: 'alert.escalated',
  open: null, triggered: 'alert.escalated', acknowledged: 'alert.acknowledged', resolved: 'alert.resolved',
};
const PAGING = { p: 'page', c: 'cancel', d: 'defer', '-': 'none' } as const;

/** ended_at is held by resolved only; started_at by every status, so only ended_at ever moves. */
const expectedStamps = (from: AlertStatus, to: AlertStatus) => ({
  sets: to === 'resolved' && from !== 'resolved' ? ['ended_at'] : [],
  clears: from === 'resolved' && to !== 'resolved' ? ['ended_at'] : [],
});

function check(from: AlertStatus, move: AlertMove, name: string, cell: Cell): void {
  const result: AlertTransition = transition(from, move);
  const what = `${from} × ${name}`;
  if (cell === '=') {
    assert.deepEqual(result, { ok: true, status: from, changed: false, sets: [], clears: [], paging: 'none', event: null }, what);
  } else if (cell === 'N' || cell === 'E' || cell === 'D') {
    assert.equal(result.ok, false, what);
    if (result.ok) return;
    assert.equal(result.status, REFUSED[cell].status, what);
    assert.match(result.detail, REFUSED[cell].detail, what);
  } else {
    const [to, effect] = cell.split('/') as [AlertStatus, keyof typeof PAGING];
    assert.ok(result.ok, `${what}: ${result.ok ? '' : result.detail}`);
    if (!result.ok) return;
    assert.equal(result.status, to, what);
    assert.equal(result.changed, true, what);
    assert.deepEqual({ sets: result.sets, clears: result.clears }, expectedStamps(from, to), `${what} stamps`);
    assert.equal(result.paging, PAGING[effect], `${what} paging`);
    assert.equal(result.event, EVENTS[name], `${what} event`);
  }
}

describe('the alert lifecycle', () => {
  test('the tables cover every status and operation of the reference', () => {
    assert.deepEqual(Object.keys(STATUS_MOVES).sort(), [...ALERT_STATUSES].sort());
    for (const row of Object.values(OPERATION_MOVES)) assert.deepEqual(Object.keys(row).sort(), [...ALERT_OPERATIONS].sort());
  });

  for (const from of ALERT_STATUSES) {
    test(`setting status from ${from}`, () => {
      for (const to of ALERT_STATUSES) check(from, { status: to }, to, STATUS_MOVES[from][to]);
    });
    test(`operations from ${from}`, () => {
      for (const op of ALERT_OPERATIONS) {
        const move: AlertMove = op === 'snooze' ? { operation: 'snooze', delayMinutes: 30 } : { operation: op };
        check(from, move, op, OPERATION_MOVES[from][op]);
      }
    });
  }

  test('a snooze carries its delay and refuses one outside 1..10080 minutes with a 400', () => {
    const ok = transition('triggered', { operation: 'snooze', delayMinutes: 10080 });
    assert.ok(ok.ok && ok.delayMinutes === 10080);
    for (const bad of [0, -5, 10081, 1.5, Number.NaN]) {
      const refused = transition('acknowledged', { operation: 'snooze', delayMinutes: bad });
      assert.ok(!refused.ok && refused.status === 400 && refused.code === 'snooze_minutes', String(bad));
      assert.match(refused.ok ? '' : refused.detail, /delay_minutes must be an integer from 1 to 10080/);
    }
  });

  test('a non-paging alert can be resolved, both ways, and reopened', () => {
    for (const move of [{ operation: 'resolve' }, { status: 'resolved' }] as AlertMove[]) {
      const r = transition('open', move);
      assert.ok(r.ok && r.status === 'resolved' && r.sets.includes('ended_at') && r.paging === 'none');
    }
    const reopened = transition('resolved', { status: 'open' });
    assert.ok(reopened.ok && reopened.clears.includes('ended_at'));
  });
});
