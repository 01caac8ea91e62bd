import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import { AlertRouteRuleIds1732300009210 } from '../migrations/1732300009210-alert-route-rule-ids';

type Rule = { id?: string; name: string; condition_groups: { id?: string; conditions: { id?: string }[] }[]; destinations: { id?: string }[] };

describe('ids for the rule graphs of alert routes stored before them', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());

  test('up gives every rule, condition group, condition and destination an id, the same in the write table and the read model', async () => {
    const organizationId = randomUUID();
    const routeId = randomUUID();
    const rules: Rule[] = [{ name: 'Old', condition_groups: [{ conditions: [{}, {}] }], destinations: [{}] }];
    await ds.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [organizationId, 'Before rule ids']);
    for (const table of ['alert_routes', 'alert_routes_read']) {
      await ds.query(`INSERT INTO ${table} (id, organization_id, name, rules, created_at, updated_at) VALUES ($1, $2, 'Route', $3, now(), now())`, [routeId, organizationId, JSON.stringify(rules)]);
    }
    const runner = ds.createQueryRunner();
    try {
      await new AlertRouteRuleIds1732300009210().up(runner);
    } finally {
      await runner.release();
    }
    const read = async (table: string) => ((await ds.query(`SELECT rules FROM ${table} WHERE organization_id = $1 AND id = $2`, [organizationId, routeId])) as { rules: Rule[] }[])[0].rules;
    const [written] = await read('alert_routes');
    const ids = [written.id, written.condition_groups[0].id, ...written.condition_groups[0].conditions.map((c) => c.id), written.destinations[0].id];
    assert.ok(ids.every((id) => typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id)), JSON.stringify(written));
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(written.name, 'Old');
    assert.deepEqual(await read('alert_routes_read'), [written]);
  });
});
