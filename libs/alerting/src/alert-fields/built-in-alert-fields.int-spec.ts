import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { AlertFieldValues1732300002920 } from '../migrations/1732300002920-alert-field-values';
import { BUILT_IN_ALERT_FIELDS, seedBuiltInAlertFields } from './built-in-alert-fields';

const KINDS = BUILT_IN_ALERT_FIELDS.map((f) => f.kind).sort();

describe('built-in alert fields for organizations created before them', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());

  const fieldsOf = (table: string, organizationId: string) => ds.query(`SELECT id, kind, slug, name FROM ${table} WHERE organization_id = $1 AND kind <> 'custom' ORDER BY kind`, [organizationId]) as Promise<{ id: string; kind: string; slug: string; name: string }[]>;

  test('down then up gives each existing organization one field of each kind, in the write table and the read model', async () => {
    const migration = new AlertFieldValues1732300002920();
    const runner = ds.createQueryRunner();
    try {
      await migration.down(runner);
      const organizationId = randomUUID();
      await runner.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [organizationId, 'Before alert fields']);
      // A custom field that took the title's slug before built-ins existed keeps it.
      const now = new Date();
      for (const table of ['alert_fields', 'alert_fields_read']) {
        await runner.query(`INSERT INTO ${table} (id, organization_id, name, slug, kind, created_at, updated_at) VALUES ('00000000-0000-4000-8000-000000000001', $1, 'Title', 'title', 'custom', $2, $2)`, [organizationId, now]);
      }
      await migration.up(runner);

      const written = await fieldsOf('alert_fields', organizationId);
      assert.deepEqual(written.map((f) => f.kind), KINDS);
      assert.deepEqual(await fieldsOf('alert_fields_read', organizationId), written);
      assert.equal(written.find((f) => f.kind === 'title')!.slug, 'title-built-in');
      assert.equal(written.find((f) => f.kind === 'external_url')!.slug, 'external_url');
      const [{ values }] = await runner.query(`SELECT column_default AS values FROM information_schema.columns WHERE table_name = 'alerts' AND column_name = 'alert_field_values'`);
      assert.match(values, /'\[\]'/);

      // Seeding again adds nothing: one built-in field of each kind.
      await seedBuiltInAlertFields(runner, [organizationId], new Date());
      assert.deepEqual(await fieldsOf('alert_fields', organizationId), written);
    } finally {
      await runner.release();
    }
  });
});
