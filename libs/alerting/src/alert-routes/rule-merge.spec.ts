import { describe, expect, test } from '@jest/globals';
import type { InvalidAttribute } from './route-rules';
import { mergeRules, settleRules } from './rule-merge';

type Item = Record<string, unknown>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const condition = (id: string, value: string) => ({ id, property_field_type: 'payload', property_field_name: '$.team', property_field_condition_type: 'is_one_of', property_field_value: value });
const rule = (id: string, name: string): Item => ({
  id,
  name,
  position: 1,
  condition_groups: [{ id: `${id}-g`, position: 1, conditions: [condition(`${id}-c1`, 'a'), condition(`${id}-c2`, 'b')] }],
  destinations: [{ id: `${id}-d`, target_type: 'Service', target_id: 'svc' }],
});
const stored = [rule('r1', 'One'), rule('r2', 'Two')];

function merged(sent: unknown): { rules: Item[]; problems: string[] } {
  const problems: InvalidAttribute[] = [];
  const rules = settleRules(mergeRules(stored, sent, problems) as Item[]);
  return { rules, problems: problems.map((p) => p.attribute) };
}

describe('mergeRules and settleRules', () => {
  test('a list naming no id replaces the stored one; every item gets an id', () => {
    const { rules, problems } = merged([{ name: 'New', condition_groups: [{ conditions: [{ property_field_name: '$.x' }] }], destinations: [{ target_id: 'svc' }] }]);
    expect(problems).toEqual([]);
    expect(rules.map((r) => r.name)).toEqual(['New']);
    const [r] = rules as { id: string; condition_groups: { id: string; conditions: { id: string }[] }[]; destinations: { id: string }[] }[];
    expect([r.id, r.condition_groups[0].id, r.condition_groups[0].conditions[0].id, r.destinations[0].id].every((id) => UUID.test(id))).toBe(true);
  });

  test('an item with a stored id changes that item (members not sent kept); stored items not named stay; an item without id is added', () => {
    const { rules, problems } = merged([{ id: 'R2', name: 'Two renamed' }, { name: 'Three', condition_groups: [], destinations: [] }]);
    expect(problems).toEqual([]);
    expect(rules.map((r) => [r.id, r.name])).toEqual([
      ['r2', 'Two renamed'],
      [expect.stringMatching(UUID), 'Three'],
      ['r1', 'One'],
    ]);
    expect(rules[0].condition_groups).toEqual(stored[1].condition_groups);
  });

  test('_destroy deletes the item it names, at every level', () => {
    const { rules, problems } = merged([
      { id: 'r1', _destroy: true },
      { id: 'r2', condition_groups: [{ id: 'r2-g', conditions: [{ id: 'r2-c1', _destroy: true }] }], destinations: [{ id: 'r2-d', _destroy: true }, { target_id: 'team' }] },
    ]);
    expect(problems).toEqual([]);
    expect(rules.map((r) => r.id)).toEqual(['r2']);
    const groups = rules[0].condition_groups as { conditions: { id: string }[] }[];
    expect(groups[0].conditions.map((c) => c.id)).toEqual(['r2-c2']);
    expect((rules[0].destinations as Item[]).map((d) => d.target_id)).toEqual(['team']);
    expect(JSON.stringify(rules)).not.toContain('_destroy');
  });

  test('a changed target_id or property_field_name drops the type decided from the old one, so it is decided again', () => {
    const { rules } = merged([{ id: 'r1', destinations: [{ id: 'r1-d', target_id: 'team' }], condition_groups: [{ id: 'r1-g', conditions: [{ id: 'r1-c1', property_field_name: 'summary' }] }] }]);
    expect(rules[0].destinations).toEqual([{ id: 'r1-d', target_id: 'team' }]);
    const [c1] = (rules[0].condition_groups as { conditions: Item[] }[])[0].conditions;
    expect(c1.property_field_type).toBeUndefined();
    expect(c1.property_field_value).toBe('a');
  });

  test('an id of no stored item, one named twice, or _destroy without an id, is a problem naming the item', () => {
    expect(merged([{ id: 'nope', name: 'x' }, { name: 'y', _destroy: true }]).problems).toEqual(['rules/0/id', 'rules/1/id']);
    expect(merged([{ id: 'r1', condition_groups: [{ id: 'r2-g' }] }]).problems).toEqual(['rules/0/condition_groups/0/id']);
    expect(merged([{ name: 'New', destinations: [{ id: 'r1-d', target_id: 'svc' }] }]).problems).toEqual(['rules/0/destinations/0/id']);
    expect(merged([{ id: 'r1', name: 'a' }, { id: 'r1', _destroy: true }]).problems).toEqual(['rules/1/id']);
  });
});
