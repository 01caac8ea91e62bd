import { existingIds, isUuid, type Queryable } from '@taproot/json-api';
import type { EscalationPlan, PlanLevel, PlanPath } from './escalation-plan';

/**
 * What the paging engine (alerting) asks of on-call's escalation policies, from their read models
 * only; another organization's records are never answered.
 */

type PathRow = Omit<PlanPath, 'levels'> & { id: string };
type LevelRow = PlanLevel & { escalation_policy_path_id: string | null };

const byPosition = (a: { position: number }, b: { position: number }) => a.position - b.position;

/**
 * The policy with its paths (by position) and each path's levels (by position). Levels without a
 * path are the default path's (as a level created without one is); a policy with such levels and
 * no default path gets an implicit one (id null) that repeats as the policy's `repeat_count` says.
 */
export async function escalationPlanOf(db: Queryable, organizationId: string, policyId: string): Promise<EscalationPlan | null> {
  if (!isUuid(policyId)) return null;
  const [policy] = (await db.query('SELECT id::text, name, repeat_count FROM escalation_policies_read WHERE organization_id = $1 AND id = $2', [organizationId, policyId])) as {
    id: string;
    name: string;
    repeat_count: number;
  }[];
  if (!policy) return null;
  // One after the other: inside the paging engine's transaction they share its one connection.
  const paths = (await db.query(
    `SELECT id::text, name, path_type, "default", position, match_mode, rules, initial_delay, COALESCE(repeat, false) AS repeat, repeat_count, retrigger_timeout_minutes,
            notification_type, time_restriction_time_zone, time_restrictions, after_deferral_behavior, after_deferral_path_id
       FROM escalation_paths_read WHERE organization_id = $1 AND escalation_policy_id = $2 ORDER BY position, created_at, id`,
    [organizationId, policy.id],
  )) as PathRow[];
  const levels = (await db.query(
    `SELECT id::text, escalation_policy_path_id, position, delay, notification_target_params, paging_strategy_configuration_strategy,
            paging_strategy_configuration_schedule_strategy
       FROM escalation_levels_read WHERE organization_id = $1 AND escalation_policy_id = $2 ORDER BY position, created_at, id`,
    [organizationId, policy.id],
  )) as LevelRow[];
  const planPaths: PlanPath[] = paths.map((path) => ({ ...path, levels: [] }));
  let fallback = planPaths.find((path) => path.default);
  if (!fallback && levels.some((level) => level.escalation_policy_path_id === null)) {
    fallback = {
      id: null,
      name: 'Default',
      path_type: 'escalation',
      default: true,
      position: planPaths.length ? Math.max(...planPaths.map((p) => p.position)) + 1 : 0,
      match_mode: 'match-all-rules',
      rules: [],
      initial_delay: 0,
      repeat: policy.repeat_count > 0,
      repeat_count: policy.repeat_count,
      retrigger_timeout_minutes: null,
      notification_type: 'audible',
      time_restriction_time_zone: null,
      time_restrictions: [],
      levels: [],
    };
    planPaths.push(fallback);
  }
  const pathsById = new Map(planPaths.map((path) => [path.id?.toLowerCase(), path]));
  for (const { escalation_policy_path_id: pathId, ...level } of levels) {
    // A level naming no path of the policy (none can, its path's delete takes it along) is left out.
    (pathId === null ? fallback : pathsById.get(pathId.toLowerCase()))?.levels.push(level);
  }
  for (const path of planPaths) path.levels.sort(byPosition);
  return { policy: { id: policy.id, name: policy.name }, paths: planPaths };
}

/** Which of `ids` are escalation policies of the organization, as lower-cased uuids; other strings name none. */
export function existingEscalationPolicyIds(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Set<string>> {
  return existingIds(db, 'escalation_policies_read', organizationId, ids);
}

/** For each team (lower-cased id) some policy of the organization names in `group_ids`: the oldest such policy. */
export async function escalationPolicyIdsOfTeams(db: Queryable, organizationId: string, teamIds: readonly string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(teamIds.filter(isUuid).map((id) => id.toLowerCase()))];
  if (wanted.length === 0) return new Map();
  const rows = (await db.query(
    `SELECT id::text, group_ids FROM escalation_policies_read
      WHERE organization_id = $1 AND EXISTS (SELECT 1 FROM unnest(group_ids) g WHERE lower(g) = ANY($2::text[]))
      ORDER BY created_at, id`,
    [organizationId, wanted],
  )) as { id: string; group_ids: string[] }[];
  const found = new Map<string, string>();
  for (const policy of rows) {
    for (const team of policy.group_ids.map((id) => id.toLowerCase())) if (wanted.includes(team) && !found.has(team)) found.set(team, policy.id);
  }
  return found;
}

/** The `retrigger_timeout_minutes` of the organization's paths among `pathIds` that set one (ids lower-cased). */
export async function retriggerTimeoutsOfPaths(db: Queryable, organizationId: string, pathIds: readonly string[]): Promise<Map<string, number>> {
  const ids = pathIds.filter(isUuid);
  if (ids.length === 0) return new Map();
  const rows = (await db.query(
    'SELECT id::text, retrigger_timeout_minutes FROM escalation_paths_read WHERE organization_id = $1 AND id = ANY($2::uuid[]) AND retrigger_timeout_minutes IS NOT NULL',
    [organizationId, ids],
  )) as { id: string; retrigger_timeout_minutes: number }[];
  return new Map(rows.map((r) => [r.id, r.retrigger_timeout_minutes]));
}
