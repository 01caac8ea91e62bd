import { hashToken } from '@taproot/auth';
import type { Queryable } from '@taproot/json-api';
import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';

/** Where the SCIM service provider is served (RFC 7644 §3.1's base URI, under the api's origin). */
export const SCIM_BASE_PATH = '/scim/v2';

/**
 * The organization's SCIM bearer token, issued by an operator (`taproot scim token`) and shown
 * once: 256 random bits, stored as its SHA-256 like API keys. One live token per organization
 * (the identity provider's configuration holds one): issuing a new one revokes the previous.
 */
export async function issueScimToken(dataSource: DataSource, organizationId: string, now = new Date()): Promise<string> {
  const token = `scim_${randomBytes(32).toString('base64url')}`;
  await dataSource.transaction(async (manager) => {
    await manager.query('UPDATE scim_tokens SET revoked_at = $2 WHERE organization_id = $1 AND revoked_at IS NULL', [organizationId, now]);
    await manager.query('INSERT INTO scim_tokens (id, organization_id, token_hash, created_at) VALUES ($1, $2, $3, $4)', [randomUUID(), organizationId, hashToken(token), now]);
  });
  return token;
}

export interface ScimClient {
  tokenId: string;
  organizationId: string;
}

/** The live token's organization, or null (unknown or revoked). */
export async function verifyScimToken(db: Queryable, token: string): Promise<ScimClient | null> {
  const [row] = (await db.query('SELECT id, organization_id FROM scim_tokens WHERE token_hash = $1 AND revoked_at IS NULL', [hashToken(token)])) as {
    id: string;
    organization_id: string;
  }[];
  return row ? { tokenId: row.id, organizationId: row.organization_id } : null;
}
