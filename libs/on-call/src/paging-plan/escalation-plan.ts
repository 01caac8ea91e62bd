import { createHash } from 'node:crypto';
import { DAY, instantAt, MINUTE, startOfDay, timeOfDay, wallAt, weekdayOf, zoneOf } from '../schedules/engine/local-time';

/**
 * What the paging engine runs for an alert: a policy's paths with their levels (read models,
 * escalation-plan-reader.ts), and the pure decisions over them (docs/escalation-policies.md,
 * "How the engine chooses a path").
 */
export interface EscalationPlan {
  policy: { id: string; name: string };
  /** Every path of the policy, escalation and deferral ones, by position. */
  paths: PlanPath[];
}

export type PathRule = { rule_type: string } & Record<string, unknown>;

export type WeekDay = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';

export interface TimeRestriction {
  start_day: WeekDay;
  start_time: string;
  end_day: WeekDay;
  end_time: string;
}

export interface PlanPath {
  /** Null for the implicit default path of a policy whose levels name no path and which has no default path. */
  id: string | null;
  name: string;
  path_type: 'escalation' | 'deferral';
  default: boolean;
  position: number;
  match_mode: 'match-all-rules' | 'match-any-rule';
  rules: PathRule[];
  initial_delay: number;
  repeat: boolean;
  repeat_count: number | null;
  /** Minutes after which an alert acknowledged on this path is triggered again (before the urgency's); null: the urgency's. */
  retrigger_timeout_minutes: number | null;
  notification_type: 'audible' | 'quiet';
  time_restriction_time_zone: string | null;
  time_restrictions: TimeRestriction[];
  /** A deferral path's: when its window ends, choose a path again (`re_evaluate`) or run `after_deferral_path_id` (`execute_path`). */
  after_deferral_behavior?: 're_evaluate' | 'execute_path' | null;
  after_deferral_path_id?: string | null;
  /** Sorted by position: level n is `levels[n - 1]`. */
  levels: PlanLevel[];
}

export interface NotificationTarget {
  id: string;
  type: 'user' | 'team' | 'schedule' | 'service' | 'slack_channel' | 'microsoft_teams_channel';
  team_members?: 'all' | 'admins' | 'escalate' | null;
}

export type PagingStrategy = 'default' | 'random' | 'cycle' | 'alert';

export interface PlanLevel {
  id: string;
  position: number;
  /** Minutes from this level's notifications to the next level's. */
  delay: number;
  notification_target_params: NotificationTarget[];
  paging_strategy_configuration_strategy: PagingStrategy;
  paging_strategy_configuration_schedule_strategy: 'on_call_only' | 'everyone';
}

/** What a path's rules ask of an alert; the engine evaluates JSON paths and alert fields. */
export interface AlertFacts {
  urgencyId: string | null;
  serviceIds: string[];
  source: string | null;
  hasIncidents: boolean;
  valuesAt(jsonPath: string): unknown[];
  fieldValues(fieldId: string): unknown[];
}

const UTC = 'Etc/UTC';
const WEEK = 7 * DAY;
const WEEK_DAYS: readonly WeekDay[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Milliseconds since Monday 00:00 of the week `at` falls in, on the zone's wall clock. */
function weekTime(at: Date, zoneName: string | null): number {
  const wall = wallAt(zoneOf(zoneName ?? UTC), at.getTime());
  const mondayBased = (weekdayOf(wall) + 6) % 7;
  return mondayBased * DAY + (wall - startOfDay(wall));
}

/** A range from start to end; one ending at or before its start runs over the week's end (equal ends: the whole week). */
function inRange(t: number, start: number, end: number): boolean {
  if (start === end) return true;
  return start < end ? t >= start && t < end : t >= start || t < end;
}

function withinRestriction(t: number, range: TimeRestriction): boolean {
  const at = (day: WeekDay, time: string) => (WEEK_DAYS.indexOf(day) * DAY + timeOfDay(time)) % WEEK;
  return inRange(t, at(range.start_day, range.start_time), at(range.end_day, range.end_time));
}

/** No restriction: always. */
function withinRestrictions(path: PlanPath, at: Date): boolean {
  if (path.time_restrictions.length === 0) return true;
  const t = weekTime(at, path.time_restriction_time_zone);
  return path.time_restrictions.some((range) => withinRestriction(t, range));
}

/** Working hours are Monday to Friday, 09:00 to 17:00 in the path's zone (the reference does not say; docs). */
function withinWorkingHours(at: Date, zoneName: string | null): boolean {
  const t = weekTime(at, zoneName);
  const day = Math.floor(t / DAY);
  const minute = (t % DAY) / MINUTE;
  return day < 5 && minute >= 9 * 60 && minute < 17 * 60;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : value == null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(text) : []);
const isEmpty = (value: unknown) =>
  value == null || value === '' || (Array.isArray(value) && value.length === 0) || (typeof value === 'object' && Object.keys(value as object).length === 0);

function regexMatches(pattern: string, subject: string): boolean {
  try {
    return new RegExp(pattern).test(subject);
  } catch {
    // A pattern JavaScript cannot compile matches nothing rather than stopping the page.
    return false;
  }
}

/** The positive operators over one value and one operand; each `does_not_`/`is_not` form is the negation over all values. */
const POSITIVE: Record<string, (value: unknown, operand: string) => boolean> = {
  is: (value, operand) => text(value) === operand,
  is_one_of: (value, operand) => text(value) === operand,
  contains: (value, operand) => (Array.isArray(value) ? value.some((item) => text(item) === operand) : text(value).includes(operand)),
  contains_key: (value, operand) => value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, operand),
  starts_with: (value, operand) => text(value).startsWith(operand),
  matches: (value, operand) => regexMatches(operand, text(value)),
};
const NEGATIVE: Record<string, string> = {
  is_not: 'is',
  is_not_one_of: 'is_one_of',
  does_not_contain: 'contains',
  does_not_contain_key: 'contains_key',
  does_not_start_with: 'starts_with',
  does_not_match: 'matches',
};

/** A json_path or field rule over the values the alert has there; an unknown operator matches nothing. */
function valuesMatch(values: unknown[], rule: PathRule): boolean {
  const operator = String(rule.operator);
  const present = values.filter((value) => value != null);
  if (operator === 'is_set') return present.length > 0;
  if (operator === 'is_not_set') return present.length === 0;
  if (operator === 'is_empty') return values.every(isEmpty);
  if (operator === 'is_not_empty') return !values.every(isEmpty);
  const operands = [...(rule.value != null ? [text(rule.value)] : []), ...strings(rule.values)];
  const positive = POSITIVE[operator] ?? POSITIVE[NEGATIVE[operator] ?? ''];
  if (!positive) return false;
  const any = present.some((value) => operands.some((operand) => positive(value, operand)));
  return operator in POSITIVE ? any : !any;
}

/** Whether one rule holds for the alert at `at`; null for a rule that plays no part on an escalation path. */
function ruleMatches(rule: PathRule, facts: AlertFacts, at: Date, zoneName: string | null): boolean | null {
  switch (rule.rule_type) {
    case 'alert_urgency':
      return facts.urgencyId !== null && strings(rule.urgency_ids).includes(facts.urgencyId);
    case 'service': {
      const wanted = new Set(strings(rule.service_ids).map((id) => id.toLowerCase()));
      return facts.serviceIds.some((id) => wanted.has(id.toLowerCase()));
    }
    case 'source': {
      const listed = facts.source !== null && strings(rule.values).includes(facts.source);
      return rule.operator === 'is' || rule.operator === 'is_one_of' ? listed : !listed;
    }
    case 'related_incidents':
      return rule.operator === 'is_set' ? facts.hasIncidents : !facts.hasIncidents;
    case 'json_path':
      return valuesMatch(facts.valuesAt(text(rule.json_path)), rule);
    case 'field':
      return valuesMatch(facts.fieldValues(text(rule.fieldable_id)), rule);
    case 'working_hour':
      return withinWorkingHours(at, zoneName) === (rule.within_working_hour !== false);
    default:
      // deferral_window: what deferral paths hold alerts back by, never a reason to take an escalation path.
      return null;
  }
}

function rulesMatch(path: PlanPath, facts: AlertFacts, at: Date): boolean {
  const results = path.rules.map((rule) => ruleMatches(rule, facts, at, path.time_restriction_time_zone)).filter((r): r is boolean => r !== null);
  if (results.length === 0) return true;
  return path.match_mode === 'match-any-rule' ? results.some(Boolean) : results.every(Boolean);
}

/**
 * The path an alert arriving at `at` follows: the first non-default path (by position) whose rules
 * and time restrictions match (a deferral path also needs `at` inside one of its deferral windows),
 * else the default escalation path, else the first escalation path with levels. A deferral path
 * holds the alert back (`deferredUntil`), then hands it on (`pathAfterDeferral`).
 */
export function choosePath(plan: EscalationPlan, facts: AlertFacts, at: Date): PlanPath | null {
  const paths = [...plan.paths].sort((a, b) => a.position - b.position);
  const escalation = paths.filter((path) => path.path_type === 'escalation');
  return (
    paths.find((path) => (path.path_type === 'deferral' || !path.default) && rulesMatch(path, facts, at) && withinRestrictions(path, at) && (path.path_type === 'escalation' || deferredUntil(path, at) !== null)) ??
    escalation.find((path) => path.default) ??
    escalation.find((path) => path.levels.length > 0) ??
    null
  );
}

/** A deferral window's block: on the days set, from `start_time` to `end_time` (past midnight when it ends earlier), or all day. */
interface TimeBlock extends Partial<Record<WeekDay, boolean>> {
  all_day?: boolean;
  start_time?: string;
  end_time?: string;
}

/** A deferral_window rule's blocks as ranges of its zone's week (ms from Monday 00:00; an end may pass the week's end). */
function blockRanges(rule: PathRule): [number, number][] {
  const ranges: [number, number][] = [];
  for (const block of (Array.isArray(rule.time_blocks) ? rule.time_blocks : []) as TimeBlock[]) {
    for (const [day, name] of WEEK_DAYS.entries()) {
      if (!block[name]) continue;
      const start = day * DAY + (block.all_day ? 0 : timeOfDay(block.start_time ?? '00:00'));
      let end = day * DAY + (block.all_day ? DAY : timeOfDay(block.end_time ?? '24:00'));
      if (end <= start) end += DAY;
      ranges.push([start, end]);
    }
  }
  return ranges;
}

/**
 * When a deferral path stops holding an alert that arrives at `at`: the end of the deferral
 * window block holding `at` (blocks that meet or overlap run on as one), or null when none holds
 * it. A window covering the whole week holds an alert a week at most.
 */
export function deferredUntil(path: PlanPath, at: Date): Date | null {
  if (path.path_type !== 'deferral') return null;
  for (const rule of path.rules.filter((r) => r.rule_type === 'deferral_window')) {
    const zoneName = typeof rule.time_zone === 'string' ? rule.time_zone : UTC;
    const ranges = blockRanges(rule);
    // The end of the latest-ending block holding `time` (ms on the week's scale, any week), or null.
    const endHolding = (time: number): number | null => {
      const inWeek = ((time % WEEK) + WEEK) % WEEK;
      const ends = ranges.flatMap(([s, e]) => [s, s - WEEK].filter((start) => inWeek >= start && inWeek < start + (e - s)).map((start) => time - inWeek + start + (e - s)));
      return ends.length ? Math.max(...ends) : null;
    };
    const t = weekTime(at, zoneName);
    let end = endHolding(t);
    if (end === null) continue;
    for (let next = endHolding(end); next !== null && end - t < WEEK; next = endHolding(end)) end = next;
    const zone = zoneOf(zoneName);
    return new Date(instantAt(zone, wallAt(zone, at.getTime()) + Math.min(end - t, WEEK)));
  }
  return null;
}

/** Where a deferred alert goes when its deferral ends: the `execute_path` escalation path, or null to choose again (`re_evaluate`, or that path is gone). */
export function pathAfterDeferral(plan: EscalationPlan, deferral: PlanPath): PlanPath | null {
  if (deferral.after_deferral_behavior !== 'execute_path' || !deferral.after_deferral_path_id) return null;
  const id = deferral.after_deferral_path_id.toLowerCase();
  return plan.paths.find((path) => path.path_type === 'escalation' && path.id?.toLowerCase() === id) ?? null;
}

export interface Step {
  /** 1-based: `path.levels[level - 1]`. */
  level: number;
  /** 0 on the first run of the path, n on its n-th repeat. */
  repeat: number;
  afterMinutes: number;
}

/** The path's first level, after its initial delay; null for a path without levels. */
export function firstStep(path: PlanPath): { level: 1; repeat: 0; afterMinutes: number } | null {
  return path.levels.length === 0 ? null : { level: 1, repeat: 0, afterMinutes: path.initial_delay };
}

/** What fires after level `level` of run `repeat` has fired, and how many minutes later; null when the path is done. */
export function nextStep(path: PlanPath, level: number, repeat: number): Step | null {
  const current = path.levels[level - 1];
  if (!Number.isInteger(level) || !current) return null;
  if (level < path.levels.length) return { level: level + 1, repeat, afterMinutes: current.delay };
  if (path.repeat && repeat < (path.repeat_count ?? 0)) return { level: 1, repeat: repeat + 1, afterMinutes: current.delay };
  return null;
}

/**
 * Who of a level's candidates (user ids in target order, without repeats) is paged: everyone
 * (`default`), one at random, one in turn (`cycle`: the `sequence`-th time the level pages), or one
 * fixed per alert (`alert`: a hash of its id, so every repeat reaches the same person).
 */
export function pickRecipients(candidates: number[], strategy: PagingStrategy, key: { alertId: string; sequence: number }, random: () => number = Math.random): number[] {
  if (candidates.length === 0) return [];
  const one = (index: number) => [candidates[((index % candidates.length) + candidates.length) % candidates.length]];
  switch (strategy) {
    case 'random':
      return one(Math.floor(random() * candidates.length));
    case 'cycle':
      return one(Math.trunc(key.sequence));
    case 'alert':
      return one(createHash('sha256').update(key.alertId).digest().readUIntBE(0, 6));
    default:
      return [...candidates];
  }
}
