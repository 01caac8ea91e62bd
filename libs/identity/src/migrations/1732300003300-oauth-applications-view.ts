import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The read side of `/v1/oauth_applications` (docs/oauth.md, "Client-credentials applications"):
 * an organization's applications with the client id as the resource id and the grant types of
 * their kind. Applications are written outside the event path (the admin API and the CLI write
 * `oauth_applications` and the provider's `Client` payload together), so reads go to a view over
 * the write table, as for API keys and users. Registered clients not yet tied to an organization
 * belong to none and are not listed.
 */
export class OAuthApplicationsView1732300003300 implements MigrationInterface {
  name = 'OAuthApplicationsView1732300003300';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE VIEW oauth_applications_view AS
      SELECT client_id AS id, organization_id, client_id, name,
             CASE kind WHEN 'client_credentials' THEN ARRAY['client_credentials'] ELSE ARRAY['authorization_code'] END AS grant_types,
             scope, service_user_id, revoked_at, created_at, updated_at
        FROM oauth_applications
       WHERE organization_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP VIEW oauth_applications_view');
  }
}
