import type { MigrationInterface, QueryRunner } from 'typeorm';
import { hashPassword } from '@taproot/identity';

/**
 * Status page passwords were stored as written; they are scrypt hashes now (docs/status-pages.md,
 * Sign-in). Hashes the ones still in clear (only the write table holds them: the read model and
 * the events carry `********`). Not reversible: down leaves them hashed.
 */
export class HashStatusPagePasswords1732300009300 implements MigrationInterface {
  name = 'HashStatusPagePasswords1732300009300';

  async up(q: QueryRunner): Promise<void> {
    const rows: { id: string; authentication_password: string }[] = await q.query(
      `SELECT id, authentication_password FROM status_pages WHERE authentication_password <> '' AND authentication_password NOT LIKE 'scrypt$%'`,
    );
    for (const row of rows) await q.query('UPDATE status_pages SET authentication_password = $2 WHERE id = $1', [row.id, await hashPassword(row.authentication_password)]);
  }

  async down(): Promise<void> {
    // A hash cannot be turned back into the password.
  }
}
