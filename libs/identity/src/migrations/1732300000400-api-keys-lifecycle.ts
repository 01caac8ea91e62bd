import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API key management (`/v1/api_keys`): the attributes of the reference's `api_key`, the scope of
 * team keys, the previous token kept through a rotation's grace period, and `api_keys_view`,
 * what reads see.
 *
 * `kind` keeps the spec's word `global` for an organization-wide key (the bootstrap key and the
 * principal use it; the existing check already admits it); the wire name `organization` is
 * mapped in one place, the view, and in `toStoredKind` for writes.
 */
export class ApiKeysLifecycle1732300000400 implements MigrationInterface {
  name = 'ApiKeysLifecycle1732300000400';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE api_keys
        ADD COLUMN description text,
        ADD COLUMN group_id text,
        ADD COLUMN role_id text,
        ADD COLUMN on_call_role_id text,
        ADD COLUMN created_by_user_id integer REFERENCES users(id) ON DELETE SET NULL,
        ADD COLUMN previous_token_prefix text,
        ADD COLUMN previous_token_hash text,
        ADD COLUMN grace_period_ends_at timestamptz`);
    // A team key is scoped to its team; a personal key to its user.
    await q.query(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_team_has_group CHECK (kind <> 'team' OR group_id IS NOT NULL)`);
    await q.query(`ALTER TABLE api_keys ADD CONSTRAINT api_keys_personal_has_user CHECK (kind <> 'personal' OR user_id IS NOT NULL)`);
    // The previous token authenticates during the grace period only; found by its prefix too.
    await q.query(
      'CREATE INDEX api_keys_previous_prefix ON api_keys (previous_token_prefix) WHERE previous_token_prefix IS NOT NULL',
    );
    // "Names must be unique within their kind and scope" (reference, createApiKey), among live keys.
    await q.query(`
      CREATE UNIQUE INDEX api_keys_name_in_scope ON api_keys (
        organization_id,
        kind,
        (CASE kind WHEN 'personal' THEN user_id::text WHEN 'team' THEN group_id ELSE '' END),
        name
      ) WHERE revoked_at IS NULL`);
    // The list's sorts, among live keys (every sort ends with created_at, id).
    for (const column of ['created_at', 'updated_at', 'name', 'expires_at', 'last_used_at']) {
      const keys = column === 'created_at' ? 'created_at, id' : `${column}, created_at, id`;
      await q.query(`CREATE INDEX api_keys_live_${column} ON api_keys (organization_id, ${keys}) WHERE revoked_at IS NULL`);
    }
    // What reads see: live (not revoked) keys, wire kind, and no token material at all, so no
    // read path can leak a hash. `expires_or_never` backs filter[active] / filter[expired].
    await q.query(`
      CREATE VIEW api_keys_view AS
      SELECT id, organization_id, user_id, group_id, name, description,
             CASE kind WHEN 'global' THEN 'organization' ELSE kind END AS kind,
             role_id, on_call_role_id, expires_at, grace_period_ends_at, last_used_at,
             COALESCE(expires_at, 'infinity'::timestamptz) AS expires_or_never,
             created_at, updated_at
        FROM api_keys
       WHERE revoked_at IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW api_keys_view');
    for (const column of ['created_at', 'updated_at', 'name', 'expires_at', 'last_used_at']) {
      await q.query(`DROP INDEX api_keys_live_${column}`);
    }
    await q.query('DROP INDEX api_keys_name_in_scope');
    await q.query('DROP INDEX api_keys_previous_prefix');
    await q.query('ALTER TABLE api_keys DROP CONSTRAINT api_keys_personal_has_user, DROP CONSTRAINT api_keys_team_has_group');
    await q.query(`
      ALTER TABLE api_keys
        DROP COLUMN description,
        DROP COLUMN group_id,
        DROP COLUMN role_id,
        DROP COLUMN on_call_role_id,
        DROP COLUMN created_by_user_id,
        DROP COLUMN previous_token_prefix,
        DROP COLUMN previous_token_hash,
        DROP COLUMN grace_period_ends_at`);
  }
}
