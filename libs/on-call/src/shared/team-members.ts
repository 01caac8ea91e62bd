import { teamRecords } from '@taproot/identity';
import type { Queryable } from '@taproot/json-api';

/** A team's members and admins (identity keeps admins among the members), as user ids. */
export interface TeamMembers {
  members: number[];
  admins: number[];
}

/** The members of each of the organization's teams among `teamIds`, through identity's published reader. */
export async function teamMembersOf(db: Queryable, organizationId: string, teamIds: readonly string[]): Promise<Map<string, TeamMembers>> {
  const teams = await teamRecords(db, organizationId, [...teamIds]);
  const ids = (value: unknown) => ((value as number[] | null) ?? []).map(Number);
  return new Map([...teams].map(([id, team]) => [id, { members: ids(team.attributes.user_ids), admins: ids(team.attributes.admin_ids) }]));
}
