import type { Row, WriteContext } from '@taproot/resources';
import { OnCallErrorCode } from '../errors';
import type { Issue } from '../shared/times';

/**
 * The spec limits escalation policies per owning team without giving the number ("not shown"):
 * Taproot's is this one (docs/escalation-policies.md).
 */
export const ESCALATION_POLICIES_PER_TEAM = 100;

/**
 * The teams of `groupIds` not in `keptGroupIds` that already own the cap of policies, each a
 * refusal naming its place in `group_ids`. Each team counted is locked for the transaction first
 * (in id order, so two writers never wait on each other crosswise), so two concurrent creates
 * cannot both take a team's last place.
 */
export async function teamPolicyCapIssues(ctx: WriteContext, groupIds: unknown, keptGroupIds: readonly string[] = []): Promise<Issue[]> {
  if (!Array.isArray(groupIds)) return [];
  const added = [...new Set(groupIds.filter((id): id is string => typeof id === 'string' && !keptGroupIds.includes(id)))].sort();
  if (!added.length) return [];
  await ctx.manager.query(
    `SELECT pg_advisory_xact_lock(hashtextextended('escalation_policies/' || $1 || '/' || team, 0)) FROM unnest($2::text[]) AS team ORDER BY team`,
    [ctx.organizationId, added],
  );
  const full: Row[] = await ctx.manager.query(
    `SELECT team FROM escalation_policies, unnest(group_ids) AS team
      WHERE organization_id = $1 AND team = ANY($2::text[]) GROUP BY team HAVING count(*) >= $3`,
    [ctx.organizationId, added, ESCALATION_POLICIES_PER_TEAM],
  );
  const fullTeams = new Set(full.map((row) => row.team as string));
  return (groupIds as unknown[]).flatMap((id, i) =>
    typeof id === 'string' && fullTeams.has(id) && !keptGroupIds.includes(id)
      ? [{ attribute: `group_ids/${i}`, detail: `team ${id} already owns ${ESCALATION_POLICIES_PER_TEAM} escalation policies, the most a team may own`, code: OnCallErrorCode.EscalationPolicyLimitReached }]
      : [],
  );
}
