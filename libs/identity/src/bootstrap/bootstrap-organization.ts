import { randomUUID } from 'node:crypto';
import { systemClock, type Clock } from '@taproot/config';
import type { DataSource, EntityManager } from 'typeorm';
import { generateApiKeyToken, hashToken, tokenPrefix } from '@taproot/auth';
import { setPassword } from '../oauth/credentials';
import { seedSystemRoles } from '../roles/system-roles';

export interface NewOrganization {
  organizationId: string;
  userId: number;
  apiKeyId: string;
  /** Shown once to whoever created it; only its hash is stored. */
  token: string;
}

/** What another context sets up in every new organization (its built-in records), in the creating transaction. */
export type OrganizationSeeder = (manager: EntityManager, organizationId: string) => Promise<void>;
const seeders = new Set<OrganizationSeeder>();

/**
 * The port through which contexts seed each new organization with their own built-in records
 * (alerting's built-in alert fields), each in its own tables: a context registers its seeder when
 * its lib loads, before any organization is created.
 */
export function registerOrganizationSeeder(seeder: OrganizationSeeder): void {
  seeders.add(seeder);
}

/** An organization with its owner user, a global API key and every context's built-in records, in the caller's transaction. */
export async function createOrganization(
  manager: EntityManager,
  input: { name: string; ownerEmail: string; token?: string },
): Promise<NewOrganization> {
  const organizationId = randomUUID();
  const apiKeyId = randomUUID();
  const token = input.token ?? generateApiKeyToken();
  await manager.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [organizationId, input.name]);
  const [{ id: userId }] = await manager.query(
    `INSERT INTO users (organization_id, email, name, role) VALUES ($1, $2, $3, 'owner') RETURNING id`,
    [organizationId, input.ownerEmail, 'Owner'],
  );
  // The organization's system roles; the owner gets Owner and the on-call Admin. The bootstrap
  // key below has no role, which keeps full access (docs/permissions.md).
  await seedSystemRoles(manager, organizationId);
  for (const seed of seeders) await seed(manager, organizationId);
  await manager.query(
    `INSERT INTO api_keys (id, organization_id, user_id, name, kind, token_prefix, token_hash)
     VALUES ($1, $2, $3, $4, 'global', $5, $6)`,
    [apiKeyId, organizationId, userId, 'Bootstrap key', tokenPrefix(token), hashToken(token)],
  );
  return { organizationId, userId, apiKeyId, token };
}

/**
 * First start on an empty database: one organization, its owner and a global key. With
 * `BOOTSTRAP_API_KEY` the key is exactly that token; otherwise a random one is returned so
 * the caller can print it once. With `BOOTSTRAP_ADMIN_EMAIL` and `BOOTSTRAP_ADMIN_PASSWORD` the
 * owner has that e-mail and signs in with that password on the auth app's pages. A database that
 * has an organization is left alone.
 */
export async function bootstrapIfEmpty(
  dataSource: DataSource,
  token: string | null,
  admin: { email: string; password: string } | null = null,
  clock: Clock = systemClock,
): Promise<(NewOrganization & { generated: boolean }) | null> {
  return dataSource.transaction(async (manager) => {
    // Two processes starting together must not both bootstrap.
    await manager.query('SELECT pg_advisory_xact_lock(1952543859)');
    const [{ count }] = await manager.query('SELECT count(*)::int AS count FROM organizations');
    if (count > 0) return null;
    const created = await createOrganization(manager, {
      name: 'Default organization',
      ownerEmail: admin?.email ?? 'owner@taproot.local',
      token: token ?? undefined,
    });
    if (admin) await setPassword(manager, admin.email, admin.password, clock);
    return { ...created, generated: token === null };
  });
}
