import { createTableWithReadModel, TIMESTAMP_READ_INDEXES } from '@taproot/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Records of a user: keyed to the user within the organization; a user's delete takes them along (docs/contact-methods.md). */
const OF_USER = `
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id integer NOT NULL`;
const TIMESTAMPS = 'created_at timestamptz NOT NULL, updated_at timestamptz NOT NULL';
const userKey = (table: string) => `CONSTRAINT ${table}_user FOREIGN KEY (organization_id, user_id) REFERENCES users (organization_id, id) ON DELETE CASCADE`;
/** Lists are per user, every sort ending in created_at, id. */
const perUser = (sorts: Record<string, string>) => Object.fromEntries(Object.entries({ ...sorts, ...TIMESTAMP_READ_INDEXES }).map(([name, key]) => [name, `user_id, ${key}`]));
const TABLES = ['user_notification_rules', 'user_phone_numbers', 'user_email_addresses'];

/**
 * Users' contact methods (e-mail addresses, phone numbers) and notification rules, each with its
 * `_read` model, and the e-mail verification tokens (their SHA-256 only).
 */
export class ContactMethods1732300007500 implements MigrationInterface {
  name = 'ContactMethods1732300007500';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE users ADD CONSTRAINT users_organization_id_id UNIQUE (organization_id, id)');
    await createTableWithReadModel(q, 'user_email_addresses', {
      definition: `${OF_USER}, email text NOT NULL, "primary" boolean NOT NULL DEFAULT false, verified_at timestamptz, ${TIMESTAMPS},
        CONSTRAINT user_email_addresses_organization_id_id UNIQUE (organization_id, id), ${userKey('user_email_addresses')}`,
      writeIndexes: { email: 'UNIQUE organization_id, user_id, lower(email)' },
      readIndexes: perUser({}),
    });
    await createTableWithReadModel(q, 'user_phone_numbers', {
      definition: `${OF_USER}, phone text NOT NULL, "primary" boolean NOT NULL DEFAULT false, verified_at timestamptz,
        verification_attempts_today integer NOT NULL DEFAULT 0, ${TIMESTAMPS},
        CONSTRAINT user_phone_numbers_organization_id_id UNIQUE (organization_id, id), ${userKey('user_phone_numbers')}`,
      writeIndexes: { phone: 'UNIQUE organization_id, user_id, phone' },
      readIndexes: perUser({}),
    });
    // A rule's contact methods are kept while it names them (the generic delete answers 409).
    await createTableWithReadModel(q, 'user_notification_rules', {
      definition: `${OF_USER}, enabled_contact_types text[] NOT NULL, notification_type text NOT NULL DEFAULT 'audible', delay integer,
        position integer NOT NULL, user_email_address_id uuid, user_call_number_id uuid, user_sms_number_id uuid, user_device_id text, ${TIMESTAMPS},
        ${userKey('user_notification_rules')},
        FOREIGN KEY (organization_id, user_email_address_id) REFERENCES user_email_addresses (organization_id, id),
        FOREIGN KEY (organization_id, user_call_number_id) REFERENCES user_phone_numbers (organization_id, id),
        FOREIGN KEY (organization_id, user_sms_number_id) REFERENCES user_phone_numbers (organization_id, id)`,
      writeIndexes: { email: 'organization_id, user_email_address_id', call: 'organization_id, user_call_number_id', sms: 'organization_id, user_sms_number_id' },
      readIndexes: perUser({ position: 'position, created_at, id' }),
    });
    // The read models go with their user too: a user's delete is no event of theirs.
    for (const table of TABLES) await q.query(`ALTER TABLE ${table}_read ADD ${userKey(`${table}_read`)}`);
    await q.query(`
      CREATE TABLE user_email_address_verifications (
        token_hash text PRIMARY KEY,
        organization_id uuid NOT NULL,
        user_email_address_id uuid NOT NULL,
        expires_at timestamptz NOT NULL,
        FOREIGN KEY (organization_id, user_email_address_id) REFERENCES user_email_addresses (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query('CREATE INDEX user_email_address_verifications_address ON user_email_address_verifications (organization_id, user_email_address_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE user_email_address_verifications');
    for (const table of TABLES) await q.query(`DROP TABLE ${table}_read, ${table}`);
    await q.query('ALTER TABLE users DROP CONSTRAINT users_organization_id_id');
  }
}
