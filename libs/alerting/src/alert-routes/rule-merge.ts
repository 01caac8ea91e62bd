import { randomUUID } from 'node:crypto';
import type { Row } from '@taproot/resources';
import { AlertingErrorCode } from '../errors';
import { isDestroyed, problem, type InvalidAttribute } from './route-rules';

/**
 * One level of a route's rule graph: what its items are called in a problem, the lists they hold,
 * and the members decided from others (dropped from a stored item when a member they are decided
 * from is sent without them, so they are decided again).
 */
interface Level {
  noun: string;
  children: readonly (readonly [key: string, level: Level])[];
  derived: readonly (readonly [member: string, from: readonly string[]])[];
}

const CONDITION: Level = { noun: 'a condition', children: [], derived: [['property_field_type', ['property_field_name', 'conditionable_id']]] };
const GROUP: Level = { noun: 'a condition group', children: [['conditions', CONDITION]], derived: [] };
const DESTINATION: Level = { noun: 'a destination', children: [], derived: [['target_type', ['target_id']]] };
const RULE: Level = { noun: 'a rule', children: [['condition_groups', GROUP], ['destinations', DESTINATION]], derived: [] };

const isObject = (value: unknown): value is Row => typeof value === 'object' && value !== null && !Array.isArray(value);
const idOf = (item: Row) => String(item.id).toLowerCase();
const rows = (value: unknown): Row[] => (Array.isArray(value) ? value.filter(isObject) : []);

function mergeList(level: Level, stored: Row[], sent: unknown, at: string, problems: InvalidAttribute[]): unknown {
  if (!Array.isArray(sent)) return sent;
  const byId = new Map(stored.filter((s) => s.id != null).map((s) => [idOf(s), s]));
  const named = new Set<string>();
  const merged = sent.map((raw: unknown, i) => {
    if (!isObject(raw)) return raw;
    const here = `${at}/${i}`;
    const old = raw.id == null ? undefined : byId.get(idOf(raw));
    if (raw.id != null && !old) problems.push(problem(`${here}/id`, `${String(raw.id)} is not ${level.noun} of this alert route`, AlertingErrorCode.UnknownReference));
    if (raw.id == null && raw._destroy === true) problems.push(problem(`${here}/id`, `is required with _destroy (the id of the ${level.noun.replace(/^an? /, '')} to delete)`));
    if (old && named.has(idOf(old))) problems.push(problem(`${here}/id`, `${String(raw.id)} is named by an earlier item of the list too`));
    if (old) named.add(idOf(old));
    const item: Row = { ...old, ...raw, ...(old ? { id: old.id } : {}) };
    if (old) for (const [member, from] of level.derived) if (!(member in raw) && from.some((m) => m in raw)) delete item[member];
    for (const [key, child] of level.children) if (key in raw) item[key] = mergeList(child, rows(old?.[key]), raw[key], `${here}/${key}`, problems);
    return item;
  });
  // Stored items the list does not name stay when it names some (the reference's PATCH); a list naming none replaces them.
  const merging = sent.some((s) => isObject(s) && (s.id != null || s._destroy === true));
  return merging ? [...merged, ...stored.filter((s) => s.id == null || !named.has(idOf(s)))] : merged;
}

/**
 * The rules a write sends, met with the route's stored rules (docs/alert-routing.md, "Changing
 * rules by id"). At each level (rules; a rule's condition groups and destinations; a group's
 * conditions) a list whose items name no `id` and no `_destroy` replaces the stored list (the
 * reference's PUT shape). A list that does is merged, as the reference's PATCH shape describes:
 * an item with a stored item's `id` changes it (members not sent are kept; `_destroy: true`
 * deletes it), an item without `id` is added, stored items not named stay, after those sent. An
 * `id` of no stored item is a problem at `<item>/id`. The answer keeps the sent items in their
 * places (so problems found later name what the client sent), `_destroy` items included until
 * `settleRules` drops them.
 */
export function mergeRules(stored: readonly object[], sent: unknown, problems: InvalidAttribute[]): unknown {
  return mergeList(RULE, rows(stored), sent, 'rules', problems);
}

function settle(level: Level, items: Row[]): Row[] {
  return items
    .filter((item) => !isDestroyed(item))
    .map(({ _destroy: _kept, ...item }) => {
      const out: Row = { id: item.id ?? randomUUID(), ...item };
      for (const [key, child] of level.children) if (Array.isArray(out[key])) out[key] = settle(child, rows(out[key]));
      return out;
    });
}

/** The merged, checked rules as stored: `_destroy` items gone, and every rule, condition group, condition and destination with its `id` (new ones assigned). */
export function settleRules<T>(rules: readonly T[]): T[] {
  return settle(RULE, rules as unknown as Row[]) as unknown as T[];
}
