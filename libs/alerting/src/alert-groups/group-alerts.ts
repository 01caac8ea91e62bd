import { asText } from '../ingestion/alert-draft';
import { evaluateJsonPath } from '../ingestion/json-path';
import { conditionHolds, conditionValues, ROUTE_CONDITION_TYPES, type RouteCondition, type RoutedAlert, type RouteTargetType } from '../alert-routes/route-alert';

/** An alert group's operators: the routes' (which select alerts) and `matches_existing_alert` (which keys them). */
export const GROUP_CONDITION_TYPES = [...ROUTE_CONDITION_TYPES, 'matches_existing_alert'] as const;

export type GroupCondition = Omit<RouteCondition, 'property_field_condition_type'> & {
  property_field_condition_type: (typeof GROUP_CONDITION_TYPES)[number];
  /** The urgencies the condition names as records (the provider's newer form of `alert_urgency_ids`). */
  values?: { record_id: string; record_type: 'AlertUrgency' }[] | null;
};

/** What grouping reads of an alert group (docs/alert-groups.md). */
export interface AlertGroupRule {
  id: string;
  /** Minutes a group stays open to new alerts after its leader was created. */
  time_window: number;
  conditions: GroupCondition[];
  /** Legacy: payload JSON Paths whose values the group's alerts share. */
  attributes: { json_path: string }[];
  targets: { target_id: string; target_type?: RouteTargetType | null }[];
  /** Legacy: the group's alerts share their title, resp. their urgency. */
  group_by_alert_title?: boolean;
  group_by_alert_urgency?: boolean;
}

/** An alert as grouping sees it: what routing sees, and where it pages (after routing). */
export interface GroupedAlert extends RoutedAlert {
  targets: readonly { type: string; id: string }[];
}

/** The group an alert falls in and its key: alerts of one group with one key are grouped together. */
export interface GroupPlace {
  groupId: string;
  key: string;
  windowMinutes: number;
}

const MATCH = 'matches_existing_alert';
const targetKey = (t: { type: string; id: string }) => `${t.type}:${t.id.toLowerCase()}`;
const sortedTexts = (values: unknown[]) => [...new Set(values.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : (asText(v) ?? ''))))].sort();

function jsonPathValues(payload: unknown, path: string): unknown[] {
  try {
    const found = evaluateJsonPath(payload, path);
    return found === undefined || found === null ? [] : Array.isArray(found) ? found : [found];
  } catch {
    // A path the payload cannot answer has no value (all such alerts share the empty one).
    return [];
  }
}

/** The condition as routing evaluates it: its urgencies those of `alert_urgency_ids` and of `values`. */
function evaluated(c: GroupCondition): RouteCondition {
  const urgencies = [...new Set([...(c.alert_urgency_ids ?? []), ...(c.values ?? []).map((v) => v.record_id)].map((id) => id.toLowerCase()))];
  return { ...c, alert_urgency_ids: urgencies } as RouteCondition;
}

/**
 * Whether the group takes the alert: its targets (if any) include one the alert pages, and every
 * selecting condition (all but `matches_existing_alert`) holds.
 */
export function groupApplies(group: AlertGroupRule, alert: GroupedAlert): boolean {
  if (group.targets.length) {
    const wanted = new Set(group.targets.map((t) => t.target_id.toLowerCase()));
    if (!alert.targets.some((t) => wanted.has(t.id.toLowerCase()))) return false;
  }
  return group.conditions.every((c) => c.property_field_condition_type === MATCH || conditionHolds(evaluated(c), alert));
}

/** The properties the group's alerts share: its `matches_existing_alert` conditions', then the legacy flags' (title, urgency). */
function matchedProperties(group: AlertGroupRule): Pick<RouteCondition, 'property_field_type' | 'property_field_name' | 'conditionable_id'>[] {
  const legacy = [group.group_by_alert_title && 'summary', group.group_by_alert_urgency && 'alert_urgency'].filter((name): name is string => Boolean(name));
  return [...group.conditions.filter((c) => c.property_field_condition_type === MATCH), ...legacy.map((name) => ({ property_field_type: 'attribute' as const, property_field_name: name }))];
}

/**
 * The alert's key in the group: its values at the `matches_existing_alert` properties (and the
 * legacy flags' title and urgency) and the legacy `attributes` paths, and the targets it pages. Two alerts share a key exactly when each
 * "matches" the other, so a follower's value equals its leader's whoever came first; the targets
 * are part of it so that grouping never keeps a team from being paged (the leader pages what each
 * of its followers would have).
 */
export function groupKey(group: AlertGroupRule, alert: GroupedAlert): string {
  const matched = matchedProperties(group).map((c) => sortedTexts(conditionValues(c, alert)));
  const legacy = group.attributes.map((a) => sortedTexts(jsonPathValues(alert.payload, a.json_path)));
  return JSON.stringify([matched, legacy, [...new Set(alert.targets.map(targetKey))].sort()]);
}

/** The first group (in the order given: by creation) that takes the alert, with its key; null when none does. */
export function placeAlert(groups: readonly AlertGroupRule[], alert: GroupedAlert): GroupPlace | null {
  const group = groups.find((g) => groupApplies(g, alert));
  return group ? { groupId: group.id, key: groupKey(group, alert), windowMinutes: group.time_window } : null;
}

/** Whether a group whose leader was created at `leaderAt` still takes an alert arriving at `at`. */
export const withinWindow = (leaderAt: number, at: number, windowMinutes: number) => at >= leaderAt && at - leaderAt <= windowMinutes * 60_000;

/** What grouping decides for one alert: it leads (and pages) or follows a leader (and does not). */
export interface GroupingDecision {
  alertId: string;
  groupId: string | null;
  /** Null when the alert leads its group, or is in none. */
  leaderId: string | null;
}

/**
 * Grouping of alerts in arrival order (what ingestion does one alert at a time, with the open
 * leaders in the database): an alert follows the open leader of its group and key, else leads.
 * Leaders are never resolved here (resolving one closes its group: the database query skips it).
 */
export function groupAlerts(groups: readonly AlertGroupRule[], alerts: readonly (GroupedAlert & { id: string; at: number })[]): GroupingDecision[] {
  const open = new Map<string, { id: string; at: number }>();
  return alerts.map((alert) => {
    const place = placeAlert(groups, alert);
    if (!place) return { alertId: alert.id, groupId: null, leaderId: null };
    const instance = `${place.groupId}\u0000${place.key}`;
    const leader = open.get(instance);
    if (leader && withinWindow(leader.at, alert.at, place.windowMinutes)) return { alertId: alert.id, groupId: place.groupId, leaderId: leader.id };
    open.set(instance, { id: alert.id, at: alert.at });
    return { alertId: alert.id, groupId: place.groupId, leaderId: null };
  });
}
