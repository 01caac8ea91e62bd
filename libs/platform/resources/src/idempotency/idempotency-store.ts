import type { DataSource, EntityManager } from 'typeorm';

/** Whose key it is: an organization's principal (API key, or OAuth client and user). */
export interface IdempotencyScope {
  organizationId: string;
  principal: string;
  key: string;
}

/** What a key was first used for; a retry must match it. */
export interface IdempotentRequest {
  method: string;
  path: string;
  bodyHash: string;
}

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

export interface IdempotencyRecord extends IdempotentRequest {
  /** The first aggregate the request's transaction changed, when it committed one. */
  resource: { type: string; id: string } | null;
  /** Null while the request is being answered, or when its answer was lost (the process stopped). */
  response: StoredResponse | null;
  createdAt: Date;
}

/** How long a key's first result is kept; an older record is ignored and replaced. */
export const IDEMPOTENCY_TTL = "interval '24 hours'";

const SCOPE = 'organization_id = $1 AND principal = $2 AND key = $3';

// A new record; an expired one under the same key is replaced in place (its key is free again).
const UPSERT = `
  INSERT INTO idempotency_keys AS k
    (organization_id, principal, key, request_method, request_path, body_hash, resource_type, resource_id, response_status, response_headers, response_body)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
  ON CONFLICT (organization_id, principal, key) DO UPDATE SET
    request_method = EXCLUDED.request_method, request_path = EXCLUDED.request_path, body_hash = EXCLUDED.body_hash,
    resource_type = EXCLUDED.resource_type, resource_id = EXCLUDED.resource_id, response_status = EXCLUDED.response_status,
    response_headers = EXCLUDED.response_headers, response_body = EXCLUDED.response_body, created_at = now()
  WHERE k.created_at <= now() - ${IDEMPOTENCY_TTL}
  RETURNING 1`;

// Lazy clean-up, in the statement that stores an answer: the organization's other expired records.
const DELETE_EXPIRED = `
  DELETE FROM idempotency_keys
  WHERE organization_id = $1 AND created_at <= now() - ${IDEMPOTENCY_TTL} AND NOT (principal = $2 AND key = $3)`;

interface Row {
  request_method: string;
  request_path: string;
  body_hash: string;
  resource_type: string | null;
  resource_id: string | null;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  created_at: Date;
}

type Queryable = Pick<EntityManager, 'query'>;

/**
 * The `idempotency_keys` table (docs/decisions/0005-idempotency-keys.md): one row per
 * organization, principal and key, scoped by the organization in every statement.
 */
export class IdempotencyStore {
  constructor(private readonly dataSource: DataSource) {}

  /** The key's live record (younger than 24 hours), if any. */
  async find(scope: IdempotencyScope): Promise<IdempotencyRecord | undefined> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT request_method, request_path, body_hash, resource_type, resource_id, response_status, response_headers, response_body, created_at
       FROM idempotency_keys WHERE ${SCOPE} AND created_at > now() - ${IDEMPOTENCY_TTL}`,
      [scope.organizationId, scope.principal, scope.key],
    );
    const row = rows[0];
    if (!row) return undefined;
    return {
      method: row.request_method,
      path: row.request_path,
      bodyHash: row.body_hash,
      resource: row.resource_type && row.resource_id ? { type: row.resource_type, id: row.resource_id } : null,
      response: row.response_status === null ? null : { status: row.response_status, headers: row.response_headers ?? {}, body: row.response_body },
      createdAt: row.created_at,
    };
  }

  /**
   * Records the key in the transaction of the request's command, with the aggregate it changed,
   * so the key commits with the command's rows or not at all. False: the key has a live record
   * (a concurrent request with it committed first; this insert waited for that commit).
   */
  async claim(manager: Queryable, scope: IdempotencyScope, request: IdempotentRequest, resource: IdempotencyRecord['resource']): Promise<boolean> {
    const rows = await manager.query(UPSERT, [...this.params(scope, request), resource?.type ?? null, resource?.id ?? null, null, null, null]);
    return rows.length > 0;
  }

  /** Stores the answer of a request whose command committed its claim. */
  async complete(scope: IdempotencyScope, response: StoredResponse): Promise<void> {
    await this.dataSource.query(
      `WITH expired AS (${DELETE_EXPIRED})
       UPDATE idempotency_keys SET response_status = $4, response_headers = $5, response_body = $6
       WHERE ${SCOPE} AND response_status IS NULL`,
      [scope.organizationId, scope.principal, scope.key, response.status, JSON.stringify(response.headers), response.body],
    );
  }

  /** Stores the answer of a request that committed nothing (refused before or in its transaction). */
  async record(scope: IdempotencyScope, request: IdempotentRequest, response: StoredResponse): Promise<void> {
    await this.dataSource.query(`WITH expired AS (${DELETE_EXPIRED}) ${UPSERT}`, [
      ...this.params(scope, request),
      null,
      null,
      response.status,
      JSON.stringify(response.headers),
      response.body,
    ]);
  }

  private params(scope: IdempotencyScope, request: IdempotentRequest): unknown[] {
    return [scope.organizationId, scope.principal, scope.key, request.method, request.path, request.bodyHash];
  }
}
