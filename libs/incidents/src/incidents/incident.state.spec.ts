import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { INCIDENT_KINDS, INCIDENT_OPERATIONS, INCIDENT_STATUSES, transition, type IncidentKind, type IncidentOperation, type IncidentStatus } from './incident.state';

/*
 * The expected lifecycle, written out by hand (docs/incident-lifecycle.md), not read from the
 * implementation's tables. A cell is:
 *   ✓  the move is allowed (its stamps are in STAMPS)     =  same status: a no-op
 *   any other code: refused, with the hint of that code (HINTS).
 */
const HINTS = {
  R: 'restart it first',
  F: 'a closed incident is final: declare a new incident instead',
  C: 'resolve it first',
  M: 'only scheduled maintenances use that status',
  O: 'scheduled maintenances only move scheduled → in_progress → completed, or are cancelled',
  P: 'put it in progress first',
  Fc: 'a completed maintenance is final',
  Fx: 'a cancelled maintenance is final',
} as const;
type Cell = '✓' | '=' | keyof typeof HINTS;

const COLUMNS = ['in_triage', 'started', 'detected', 'acknowledged', 'mitigated', 'resolved', 'closed', 'cancelled', 'scheduled', 'in_progress', 'completed'] as const;

const INCIDENT_MOVES: Record<string, Cell[]> = {
  //             in_triage started detected acknowledged mitigated resolved closed cancelled scheduled in_progress completed
  in_triage:    ['=',       '✓',    '✓',     '✓',         '✓',      '✓',     'C',   '✓',      'M',      'M',        'M'],
  started:      ['✓',       '=',    '✓',     '✓',         '✓',      '✓',     'C',   '✓',      'M',      'M',        'M'],
  detected:     ['✓',       '✓',    '=',     '✓',         '✓',      '✓',     'C',   '✓',      'M',      'M',        'M'],
  acknowledged: ['✓',       '✓',    '✓',     '=',         '✓',      '✓',     'C',   '✓',      'M',      'M',        'M'],
  mitigated:    ['✓',       '✓',    '✓',     '✓',         '=',      '✓',     'C',   '✓',      'M',      'M',        'M'],
  resolved:     ['R',       '✓',    'R',     'R',         'R',      '=',     '✓',   'R',      'M',      'M',        'M'],
  closed:       ['F',       'F',    'F',     'F',         'F',      'F',     '=',   'F',      'M',      'M',        'M'],
  cancelled:    ['R',       '✓',    'R',     'R',         'R',      'R',     'R',   '=',      'M',      'M',        'M'],
};

const MAINTENANCE_MOVES: Record<string, Cell[]> = {
  //            in_triage started detected acknowledged mitigated resolved closed cancelled scheduled in_progress completed
  scheduled:   ['O',       'O',    'O',     'O',         'O',      'O',     'O',   '✓',      '=',      '✓',        'P'],
  in_progress: ['O',       'O',    'O',     'O',         'O',      'O',     'O',   '✓',      'O',      '=',        '✓'],
  completed:   ['O',       'O',    'O',     'O',         'O',      'O',     'O',   'Fc',     'Fc',     'Fc',       '='],
  cancelled:   ['O',       'O',    'O',     'O',         'O',      'O',     'O',   '=',      'Fx',     'Fx',       'Fx'],
};

const OPERATION_COLUMNS = ['mitigate', 'resolve', 'cancel', 'in_triage', 'restart'] as const;

const INCIDENT_OPERATION_MOVES: Record<string, Cell[]> = {
  //             mitigate resolve cancel in_triage restart
  in_triage:    ['✓',     '✓',    '✓',   '=',      '✓'],
  started:      ['✓',     '✓',    '✓',   '✓',      '='],
  detected:     ['✓',     '✓',    '✓',   '✓',      '✓'],
  acknowledged: ['✓',     '✓',    '✓',   '✓',      '✓'],
  mitigated:    ['=',     '✓',    '✓',   '✓',      '✓'],
  resolved:     ['R',     '=',    'R',   'R',      '✓'],
  closed:       ['F',     'F',    'F',   'F',      'F'],
  cancelled:    ['R',     'R',    '=',   'R',      '✓'],
};

const MAINTENANCE_OPERATION_MOVES: Record<string, Cell[]> = {
  //            mitigate resolve cancel in_triage restart
  scheduled:   ['O',     'P',    '✓',   'O',      'O'],
  in_progress: ['O',     '✓',    '✓',   'O',      'O'],
  completed:   ['O',     '=',    'Fc',  'O',      'O'],
  cancelled:   ['O',     'Fx',   '=',   'O',      'O'],
};

const INCIDENT_OPERATION_TARGETS: Record<string, IncidentStatus> = { mitigate: 'mitigated', resolve: 'resolved', cancel: 'cancelled', in_triage: 'in_triage', restart: 'started' };
const MAINTENANCE_OPERATION_TARGETS: Record<string, IncidentStatus> = { resolve: 'completed', cancel: 'cancelled' };

/** Each allowed move: [stamped when empty, cleared]. */
const STAMPS: Record<string, [string[], string[]]> = {
  'in_triage → started': [['started_at'], []],
  'in_triage → detected': [['started_at', 'detected_at'], []],
  'in_triage → acknowledged': [['started_at', 'acknowledged_at'], []],
  'in_triage → mitigated': [['started_at', 'mitigated_at'], []],
  'in_triage → resolved': [['started_at', 'mitigated_at', 'resolved_at'], []],
  'in_triage → cancelled': [['cancelled_at'], []],
  'started → in_triage': [['in_triage_at'], []],
  'started → detected': [['detected_at'], []],
  'started → acknowledged': [['acknowledged_at'], []],
  'started → mitigated': [['mitigated_at'], []],
  'started → resolved': [['mitigated_at', 'resolved_at'], []],
  'started → cancelled': [['cancelled_at'], []],
  'detected → in_triage': [['in_triage_at'], []],
  'detected → started': [[], []],
  'detected → acknowledged': [['acknowledged_at'], []],
  'detected → mitigated': [['mitigated_at'], []],
  'detected → resolved': [['mitigated_at', 'resolved_at'], []],
  'detected → cancelled': [['cancelled_at'], []],
  'acknowledged → in_triage': [['in_triage_at'], []],
  'acknowledged → started': [[], []],
  'acknowledged → detected': [['detected_at'], []],
  'acknowledged → mitigated': [['mitigated_at'], []],
  'acknowledged → resolved': [['mitigated_at', 'resolved_at'], []],
  'acknowledged → cancelled': [['cancelled_at'], []],
  'mitigated → in_triage': [['in_triage_at'], ['mitigated_at']],
  'mitigated → started': [[], ['mitigated_at']],
  'mitigated → detected': [['detected_at'], ['mitigated_at']],
  'mitigated → acknowledged': [['acknowledged_at'], ['mitigated_at']],
  'mitigated → resolved': [['resolved_at'], []],
  'mitigated → cancelled': [['cancelled_at'], ['mitigated_at']],
  'resolved → started': [[], ['mitigated_at', 'resolved_at']],
  'resolved → closed': [['closed_at'], []],
  'cancelled → started': [['started_at'], ['cancelled_at']],
  'scheduled → in_progress': [['started_at'], []],
  'scheduled → cancelled': [['cancelled_at'], []],
  'in_progress → completed': [['resolved_at'], []],
  'in_progress → cancelled': [['cancelled_at'], []],
};

const WORDING: Record<string, string> = { in_triage: 'in triage', in_progress: 'in progress' };
const STATUS_VERBS: Record<string, string> = {
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
const OPERATION_VERBS: Record<string, string> = { mitigate: 'mitigated', resolve: 'resolved', cancel: 'cancelled', in_triage: 'moved to triage', restart: 'restarted' };

const FAMILIES = [
  { name: 'incident', noun: 'An incident', kinds: ['test', 'test_sub', 'example', 'example_sub', 'normal', 'normal_sub', 'backfilled'], moves: INCIDENT_MOVES, operations: INCIDENT_OPERATION_MOVES, targets: INCIDENT_OPERATION_TARGETS },
  { name: 'scheduled maintenance', noun: 'A scheduled maintenance', kinds: ['scheduled', 'scheduled_sub'], moves: MAINTENANCE_MOVES, operations: MAINTENANCE_OPERATION_MOVES, targets: MAINTENANCE_OPERATION_TARGETS },
] as const;

/** What `transition` must answer for one cell. */
function expected(noun: string, from: string, cell: Cell, target: string | undefined, verb: string) {
  if (cell === '=') return { ok: true, status: from, changed: false, sets: [], clears: [] };
  if (cell === '✓') {
    const stamps = STAMPS[`${from} → ${target}`];
    assert.ok(stamps, `the test's STAMPS table has no row ${from} → ${target}`);
    return { ok: true, status: target, changed: true, sets: stamps[0], clears: stamps[1] };
  }
  return { ok: false, detail: `${noun} that is ${WORDING[from] ?? from} cannot be ${verb}; ${HINTS[cell]}` };
}

describe('incident lifecycle: every move', () => {
  test('the tables cover every status, kind and operation of the reference', () => {
    assert.deepEqual([...COLUMNS], [...INCIDENT_STATUSES]);
    assert.deepEqual([...OPERATION_COLUMNS], [...INCIDENT_OPERATIONS]);
    assert.deepEqual(FAMILIES.flatMap((f) => f.kinds).sort(), [...INCIDENT_KINDS].sort());
    const allowed = FAMILIES.flatMap((f) => Object.entries(f.moves).flatMap(([from, cells]) => cells.flatMap((c, i) => (c === '✓' ? [`${from} → ${COLUMNS[i]}`] : []))));
    assert.deepEqual(allowed.sort(), Object.keys(STAMPS).sort(), 'STAMPS lists exactly the allowed moves');
  });

  for (const family of FAMILIES) {
    for (const kind of family.kinds as readonly IncidentKind[]) {
      test(`${kind}: every status × status pair`, () => {
        for (const [from, cells] of Object.entries(family.moves)) {
          cells.forEach((cell, i) => {
            const to = COLUMNS[i];
            const got = transition({ status: from as IncidentStatus, kind }, to);
            assert.deepEqual(got, expected(family.noun, from, cell, to, STATUS_VERBS[to]), `${kind}: ${from} → ${to}`);
          });
        }
      });

      test(`${kind}: every status × operation pair`, () => {
        for (const [from, cells] of Object.entries(family.operations)) {
          cells.forEach((cell, i) => {
            const op: IncidentOperation = OPERATION_COLUMNS[i];
            const got = transition({ status: from as IncidentStatus, kind }, op);
            assert.deepEqual(got, expected(family.noun, from, cell, family.targets[op], OPERATION_VERBS[op]), `${kind}: ${from} by ${op}`);
          });
        }
      });
    }
  }
});

describe('incident lifecycle: the rules responders rely on', () => {
  const normal = (status: IncidentStatus) => ({ status, kind: 'normal' as const });

  test('a cancelled incident cannot be mitigated until it is restarted', () => {
    assert.deepEqual(transition(normal('cancelled'), 'mitigate'), { ok: false, detail: 'An incident that is cancelled cannot be mitigated; restart it first' });
    assert.deepEqual(transition(normal('cancelled'), 'restart'), { ok: true, status: 'started', changed: true, sets: ['started_at'], clears: ['cancelled_at'] });
  });

  test('restarting a resolved incident clears its outcome and keeps when it started', () => {
    assert.deepEqual(transition(normal('resolved'), 'restart'), { ok: true, status: 'started', changed: true, sets: [], clears: ['mitigated_at', 'resolved_at'] });
  });

  test('a closed incident is final', () => {
    assert.deepEqual(transition(normal('closed'), 'restart'), {
      ok: false,
      detail: 'An incident that is closed cannot be restarted; a closed incident is final: declare a new incident instead',
    });
  });

  test('repeating an operation is a no-op, so a retried request succeeds', () => {
    assert.deepEqual(transition(normal('resolved'), 'resolve'), { ok: true, status: 'resolved', changed: false, sets: [], clears: [] });
    assert.deepEqual(transition(normal('mitigated'), 'mitigated'), { ok: true, status: 'mitigated', changed: false, sets: [], clears: [] });
  });

  test('a status that does not belong to the kind is refused whatever the target', () => {
    assert.deepEqual(transition({ status: 'in_progress', kind: 'normal' }, 'resolve'), {
      ok: false,
      detail: 'An incident of kind normal cannot have the status in_progress; only scheduled maintenances use that status',
    });
    assert.deepEqual(transition({ status: 'mitigated', kind: 'scheduled_sub' }, 'mitigated'), {
      ok: false,
      detail: 'An incident of kind scheduled_sub cannot have the status mitigated; scheduled maintenances only move scheduled → in_progress → completed, or are cancelled',
    });
  });
});
