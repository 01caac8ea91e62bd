import type { Queryable } from '@taproot/json-api';
import type { WriteContext } from '@taproot/resources';
import type { AlertGroupRule, GroupPlace } from './group-alerts';

/** The organization's alert groups in the order grouping tries them (creation), as grouping reads them. */
export async function organizationGroups(db: Queryable, organizationId: string): Promise<AlertGroupRule[]> {
  return (await db.query('SELECT id::text, time_window, conditions, attributes, targets, group_by_alert_title, group_by_alert_urgency FROM alert_groups WHERE organization_id = $1 ORDER BY created_at, id', [organizationId])) as AlertGroupRule[];
}

/**
 * The open leader of the alert's group and key: unresolved, created within the window. Taken
 * under a transaction-level advisory lock on (organization, group, key), held until commit, so of
 * two first alerts in parallel requests one leads and the other, waiting, finds it.
 */
export async function openLeader(ctx: WriteContext, place: GroupPlace): Promise<string | null> {
  await ctx.manager.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [`alert_groups:${ctx.organizationId}:${place.groupId}`, place.key]);
  const [leader] = (await ctx.manager.query(
    `SELECT id FROM alerts WHERE organization_id = $1 AND alert_group_id = $2 AND alert_group_key = $3 AND is_group_leader_alert AND status <> 'resolved' AND created_at >= $4
     ORDER BY created_at DESC, id LIMIT 1`,
    [ctx.organizationId, place.groupId, place.key, new Date(ctx.now.getTime() - place.windowMinutes * 60_000)],
  )) as { id: string }[];
  return leader?.id ?? null;
}

/** Records the key a new leader's followers will be found by (kept on the write table only: nobody reads it but `openLeader`). */
export async function markLeader(ctx: WriteContext, alertId: string, place: GroupPlace): Promise<void> {
  await ctx.manager.query('UPDATE alerts SET alert_group_key = $3 WHERE organization_id = $1 AND id = $2', [ctx.organizationId, alertId, place.key]);
}

/** A leader's unresolved followers: resolving the leader resolves them. */
export async function unresolvedFollowers(db: Queryable, organizationId: string, leaderId: string): Promise<string[]> {
  const rows = (await db.query("SELECT id FROM alerts WHERE organization_id = $1 AND group_leader_alert_id = $2 AND status <> 'resolved' ORDER BY created_at, id", [organizationId, leaderId])) as { id: string }[];
  return rows.map((r) => r.id);
}
