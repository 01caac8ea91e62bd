import type { Clock } from '@taproot/config';
import type { EntityManager } from 'typeorm';

/**
 * Spec, Dynamic client registration: "The team the app acts on is set when the first user
 * authorizes it." Fixes a registered client's organization when it has none yet (one atomic
 * UPDATE, so two first authorizations racing cannot both win) and says whether the given
 * organization is the client's. Clients without an application row have nothing to fix.
 */
export async function claimClientOrganization(db: Pick<EntityManager, 'query'>, clientId: string, organizationId: string, clock: Clock): Promise<boolean> {
  const [row] = await db.query(
    `WITH fixed AS (
       UPDATE oauth_applications SET organization_id = $2, updated_at = $3
        WHERE client_id = $1 AND organization_id IS NULL
       RETURNING organization_id)
     SELECT COALESCE((SELECT organization_id FROM fixed), a.organization_id)::text AS organization_id
       FROM oauth_applications a WHERE a.client_id = $1`,
    [clientId, organizationId, clock.now()],
  );
  return !row || row.organization_id === organizationId;
}
