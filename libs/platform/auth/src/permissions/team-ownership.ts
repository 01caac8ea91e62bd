import { SetMetadata, type CustomDecorator } from '@nestjs/common';
import { quoteIdent } from '@taproot/persistence';
import type { DataSource } from 'typeorm';

export const TEAM_OWNED = 'taproot:team-owned';

/**
 * How a route's records name the teams that own them (spec, API keys: a team key has "full
 * read and edit on entities the team owns").
 */
export type TeamOwnedRoute = (
  /** A record owned through an array column of team ids, also the create/update attribute. */
  | { table: string; teamsColumn: string }
  /** The team record itself: a team key administers its own team. */
  | { table: string; isTeam: true }
) & {
  /** Whether the route's `{id}` may be a slug (the table has one), as well as a uuid. */
  slugs: boolean;
};

/** Marks a create/update/delete route whose records a team key may change when its team owns them. */
export const OwnedByTeam = (route: TeamOwnedRoute): CustomDecorator<string> => SetMetadata(TEAM_OWNED, route);

export interface OwnershipRequest {
  params?: Record<string, string | undefined>;
  body?: unknown;
}

/**
 * Whether a team owns what a request touches. A create must name the team among the owners it
 * sends; an update or delete needs a stored record the team owns, and an update must not take
 * the team off the owners it sends. A missing record passes, so the handler answers 404 as for
 * any caller. Checked before the command runs: ownership changed by a concurrent request in
 * between is not seen (the same window as any read-then-write permission check). Reads the
 * owners of any context's table: part of the authorization every context needs.
 */
export class TeamOwnershipChecker {
  constructor(private readonly dataSource: DataSource) {}

  async owns(organizationId: string, teamId: string, route: TeamOwnedRoute, request: OwnershipRequest): Promise<boolean> {
    const id = request.params?.id;
    const sent = ownersSent(request.body, route);
    if (sent !== undefined && !sent.includes(teamId)) return false;
    if (id === undefined) return sent !== undefined; // a create must claim the team
    const owned =
      'isTeam' in route
        ? 'id::text = $3'
        : `$3 = ANY(${quoteIdent(route.teamsColumn)}::text[])`;
    const rows: { owned: boolean }[] = await this.dataSource.query(
      `SELECT ${owned} AS owned FROM ${quoteIdent(route.table)} WHERE organization_id = $1 AND (id::text = $2${route.slugs ? ' OR slug = $2' : ''}) LIMIT 1`,
      [organizationId, id, teamId],
    );
    return rows.length === 0 || rows[0].owned === true;
  }
}

/** The owners a request body names (JSON:API `data.attributes`), or undefined when it names none. */
function ownersSent(body: unknown, route: TeamOwnedRoute): string[] | undefined {
  if ('isTeam' in route) return undefined;
  const attributes = (body as { data?: { attributes?: Record<string, unknown> } } | undefined)?.data?.attributes;
  const owners = attributes?.[route.teamsColumn];
  if (owners === undefined) return undefined;
  return Array.isArray(owners) ? owners.map(String) : [];
}
