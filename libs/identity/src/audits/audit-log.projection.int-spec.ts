import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { domainEvent, type DomainEvent } from '@taproot/messaging';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { createOrganization } from '../bootstrap/bootstrap-organization';
import { AuditLogProjection } from './audit-log.projection';

describe('AuditLogProjection applies a batch in a fixed number of statements', () => {
  let ds: DataSource;
  before(async () => {
    ds = await openTestDataSource();
  });
  after(() => ds.destroy());

  test('one row per event, changes against the item’s previous object (stored or earlier in the batch), one announcement each', async () => {
    const org = await ds.transaction((m) => createOrganization(m, { name: 'Audited', ownerEmail: 'a@example.test' }));
    const service = randomUUID();
    const event = (type: string, name: string): DomainEvent =>
      domainEvent({ type, organizationId: org.organizationId, aggregateType: 'services', aggregateId: service, actor: { kind: 'api_key', id: org.apiKeyId }, payload: { id: service, name } });
    const projection = new AuditLogProjection(['taproot.catalog']);
    await ds.transaction((m) => projection.applyBatch([event('service.created', 'a')], m));

    const batch = [event('service.updated', 'b'), event('service.updated', 'c'), ...Array.from({ length: 8 }, (_, i) => event('service.updated', `d${i}`))];
    let statements = 0;
    await ds.transaction(async (m) => {
      const counted = new Proxy(m, { get: (target, key) => (key === 'query' ? (...args: Parameters<EntityManager['query']>) => (statements++, target.query(...args)) : Reflect.get(target, key)) });
      await projection.applyBatch(batch, counted);
    });
    assert.equal(statements, 4, 'previous objects, acting users, the insert, the announcements');

    const rows: { event: string; object_changes: Record<string, [unknown, unknown]>; user_email: string; api_key_id: string }[] = await ds.query(
      'SELECT event, object_changes, user_email, api_key_id FROM audits WHERE organization_id = $1 ORDER BY id',
      [org.organizationId],
    );
    assert.equal(rows.length, 11);
    assert.deepEqual(rows[1].object_changes, { name: ['a', 'b'] }, 'against the stored row');
    assert.deepEqual(rows[2].object_changes, { name: ['b', 'c'] }, 'against the batch’s earlier event');
    assert.equal(rows[1].user_email, 'a@example.test');
    assert.equal(rows[1].api_key_id, org.apiKeyId);
    const [{ announced }] = await ds.query("SELECT count(*)::int AS announced FROM outbox WHERE organization_id = $1 AND event->>'type' = 'audit_log.created'", [org.organizationId]);
    assert.equal(announced, 11);
  });
});
