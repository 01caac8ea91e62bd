import { describe, expect, test } from '@jest/globals';
import fc from 'fast-check';
import { groupAlerts, groupApplies, groupKey, placeAlert, withinWindow, type AlertGroupRule, type GroupCondition, type GroupedAlert } from './group-alerts';

const SOURCE = '0d3f6a4e-1111-4a1b-8c2d-000000000001';
const TEAM_A = 'aaaaaaaa-0000-4000-8000-000000000001';
const TEAM_B = 'aaaaaaaa-0000-4000-8000-000000000002';

const alert = (payload: Record<string, unknown>, targets: string[] = [TEAM_A], summary = 'Disk full'): GroupedAlert => ({
  alertSourceId: SOURCE,
  attributes: { summary, description: null, source: 'generic_webhook' },
  urgencyId: 'high',
  payload,
  fieldValues: () => [],
  targets: targets.map((id) => ({ type: 'Group', id })),
});

const cond = (c: Partial<GroupCondition>): GroupCondition => ({ property_field_type: 'payload', property_field_condition_type: 'is_one_of', ...c });
const group = (g: Partial<AlertGroupRule> = {}): AlertGroupRule => ({ id: 'g1', time_window: 10, conditions: [], attributes: [], targets: [], ...g });

describe('groupApplies', () => {
  test('selecting conditions must all hold; matches_existing_alert selects nothing', () => {
    const g = group({ conditions: [cond({ property_field_name: '$.env', property_field_values: ['prod'] }), cond({ property_field_name: '$.host', property_field_condition_type: 'matches_existing_alert' })] });
    expect(groupApplies(g, alert({ env: 'prod', host: 'a' }))).toBe(true);
    expect(groupApplies(g, alert({ env: 'dev', host: 'a' }))).toBe(false);
  });

  test('targets restrict the group to alerts paging one of them', () => {
    const g = group({ targets: [{ target_id: TEAM_B.toUpperCase(), target_type: 'Group' }] });
    expect(groupApplies(g, alert({}, [TEAM_A]))).toBe(false);
    expect(groupApplies(g, alert({}, [TEAM_A, TEAM_B]))).toBe(true);
  });
});

describe('legacy flags and urgency records', () => {
  test("a condition's values name urgencies as alert_urgency_ids do", () => {
    const g = group({ conditions: [cond({ property_field_type: 'attribute', property_field_name: 'summary', property_field_values: ['Disk full'], alert_urgency_ids: [], values: [{ record_id: 'high', record_type: 'AlertUrgency' }] })] });
    expect(groupApplies(g, alert({}))).toBe(true);
    expect(groupApplies(g, { ...alert({}), urgencyId: 'low' })).toBe(false);
  });

  test('group_by_alert_title and group_by_alert_urgency key the alerts by title, resp. urgency', () => {
    const byTitle = group({ group_by_alert_title: true });
    expect(groupKey(byTitle, alert({}, [TEAM_A], 'Disk full'))).toBe(groupKey(byTitle, alert({ other: 1 }, [TEAM_A], 'Disk full')));
    expect(groupKey(byTitle, alert({}, [TEAM_A], 'Disk full'))).not.toBe(groupKey(byTitle, alert({}, [TEAM_A], 'CPU high')));
    expect(groupKey(group(), alert({}, [TEAM_A], 'Disk full'))).toBe(groupKey(group(), alert({}, [TEAM_A], 'CPU high')));
    const byUrgency = group({ group_by_alert_urgency: true });
    expect(groupKey(byUrgency, alert({}))).not.toBe(groupKey(byUrgency, { ...alert({}), urgencyId: 'low' }));
  });
});

describe('groupKey', () => {
  test('alerts share a key when their matched properties, legacy paths and targets are equal', () => {
    const g = group({ conditions: [cond({ property_field_type: 'attribute', property_field_name: 'summary', property_field_condition_type: 'matches_existing_alert' })], attributes: [{ json_path: '$.host' }] });
    const key = groupKey(g, alert({ host: 'db1', other: 1 }));
    expect(groupKey(g, alert({ host: 'db1', other: 2 }))).toBe(key);
    expect(groupKey(g, alert({ host: 'db2' }))).not.toBe(key);
    expect(groupKey(g, alert({ host: 'db1' }, [TEAM_A], 'CPU high'))).not.toBe(key);
    expect(groupKey(g, alert({ host: 'db1' }, [TEAM_B]))).not.toBe(key);
    // A path the payload lacks is one (empty) value, a path that cannot be parsed too.
    expect(groupKey(group({ attributes: [{ json_path: '$[' }] }), alert({}))).toBe(groupKey(group({ attributes: [{ json_path: '$.none' }] }), alert({})));
  });

  test('placeAlert: the first group (creation order) that applies', () => {
    const groups = [group({ id: 'prod', conditions: [cond({ property_field_name: '$.env', property_field_values: ['prod'] })] }), group({ id: 'all' })];
    expect(placeAlert(groups, alert({ env: 'prod' }))?.groupId).toBe('prod');
    expect(placeAlert(groups, alert({ env: 'dev' }))?.groupId).toBe('all');
    expect(placeAlert([groups[0]], alert({ env: 'dev' }))).toBeNull();
  });
});

describe('groupAlerts', () => {
  const g = group({ time_window: 5, attributes: [{ json_path: '$.host' }] });
  const at = (minutes: number) => minutes * 60_000;

  test('the first alert leads, the others within the window follow it; after the window a new group starts', () => {
    const decisions = groupAlerts([g], [
      { ...alert({ host: 'a' }), id: '1', at: at(0) },
      { ...alert({ host: 'a' }), id: '2', at: at(1) },
      { ...alert({ host: 'b' }), id: '3', at: at(2) },
      { ...alert({ host: 'a' }), id: '4', at: at(5) },
      { ...alert({ host: 'a' }), id: '5', at: at(6) },
      { ...alert({ host: 'a' }), id: '6', at: at(7) },
    ]);
    expect(decisions.map((d) => d.leaderId)).toEqual([null, '1', null, '1', null, '5']);
    expect(withinWindow(at(0), at(5), 5)).toBe(true);
    expect(withinWindow(at(0), at(5) + 1, 5)).toBe(false);
  });

  // Issue 16: which alert leads may depend on arrival order; which alerts are grouped together,
  // and which targets are paged (the leaders' and the ungrouped alerts'), must not.
  test('property: within a window, the grouping and the targets paged do not depend on arrival order', () => {
    const host = fc.constantFrom('a', 'b', 'c');
    const arbAlert = fc.record({ host, env: fc.constantFrom('prod', 'dev'), summary: fc.constantFrom('Disk full', 'CPU high'), teams: fc.subarray([TEAM_A, TEAM_B], { minLength: 1 }) });
    const arbGroup = fc.record({
      onlyProd: fc.boolean(),
      bySummary: fc.boolean(),
      byHost: fc.boolean(),
      team: fc.option(fc.constantFrom(TEAM_A, TEAM_B), { nil: null }),
    });
    fc.assert(
      fc.property(fc.array(arbGroup, { maxLength: 3 }), fc.array(arbAlert, { minLength: 1, maxLength: 25 }), fc.array(fc.integer({ min: 0, max: 10 * 60_000 }), { minLength: 25, maxLength: 25 }), fc.infiniteStream(fc.nat()), (specs, raw, times, seeds) => {
        const groups = specs.map(
          (s, i): AlertGroupRule =>
            group({
              id: `g${i}`,
              time_window: 10,
              conditions: [
                ...(s.onlyProd ? [cond({ property_field_name: '$.env', property_field_values: ['prod'] })] : []),
                ...(s.bySummary ? [cond({ property_field_type: 'attribute', property_field_name: 'summary', property_field_condition_type: 'matches_existing_alert' })] : []),
              ],
              attributes: s.byHost ? [{ json_path: '$.host' }] : [],
              targets: s.team ? [{ target_id: s.team, target_type: 'Group' }] : [],
            }),
        );
        const alerts = raw.map((a, i) => ({ ...alert({ host: a.host, env: a.env }, a.teams, a.summary), id: String(i) }));
        // Arrival times ascend in processing order, all within one window.
        const sortedTimes = [...times].sort((x, y) => x - y);
        const run = (order: typeof alerts) => {
          const decisions = groupAlerts(groups, order.map((a, i) => ({ ...a, at: sortedTimes[i] })));
          const leaderOf = new Map(decisions.map((d) => [d.alertId, d.leaderId ?? d.alertId]));
          const together = new Set(decisions.map((d) => decisions.filter((o) => leaderOf.get(o.alertId) === leaderOf.get(d.alertId)).map((o) => o.alertId).sort().join(',')));
          const paged = new Set(decisions.filter((d) => d.leaderId === null).flatMap((d) => alerts[Number(d.alertId)].targets.map((t) => t.id)));
          return { together: [...together].sort(), paged: [...paged].sort(), leaders: decisions.filter((d) => d.leaderId === null).length };
        };
        const shuffled = [...alerts];
        const it = seeds[Symbol.iterator]();
        for (let i = shuffled.length - 1; i > 0; i--) {
          const j = it.next().value % (i + 1);
          [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
        }
        const a = run(alerts);
        const b = run(shuffled);
        expect(b.together).toEqual(a.together);
        expect(b.paged).toEqual(a.paged);
        expect(b.leaders).toBe(a.leaders);
        // Every target any alert pages is paged: grouping drops repeats, never a team.
        expect(a.paged).toEqual([...new Set(alerts.flatMap((x) => x.targets.map((t) => t.id)))].sort());
      }),
      { numRuns: 300 },
    );
  });
});
