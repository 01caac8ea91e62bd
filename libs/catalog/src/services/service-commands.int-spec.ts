import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createOrganization } from '@taproot/identity';
import { domainEvent, type DomainEvent, type UnitOfWork } from '@taproot/messaging';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import {
  CreateResourceCommand,
  CreateResourceHandler,
  DeleteResourceCommand,
  DeleteResourceHandler,
  ResourceListProjection,
  unitOfWorkWithReadModels,
  UpdateResourceCommand,
  UpdateResourceHandler,
} from '@taproot/resources';
import { serviceDefinition } from './service.schema';

const actor = { kind: 'api_key' as const, id: randomUUID() };
const clock = { now: () => new Date('2026-11-23T10:00:00.000Z') };

describe('service commands (the generic resource path)', () => {
  let ds: DataSource;
  let uow: UnitOfWork;
  before(async () => {
    ds = await openTestDataSource();
    uow = unitOfWorkWithReadModels(ds, [serviceDefinition]);
  });
  after(() => ds.destroy());

  const newOrg = () => ds.transaction((m) => createOrganization(m, { name: 'Commands', ownerEmail: 'c@example.test' }));
  const outbox = async (organizationId: string): Promise<{ topic: string; aggregate_id: string; event: DomainEvent }[]> =>
    ds.query('SELECT topic, aggregate_id, event FROM outbox WHERE organization_id = $1 ORDER BY seq', [organizationId]);

  test('create, update and delete each write their row change and one outbox event in the same transaction', async () => {
    const { organizationId } = await newOrg();
    const create = new CreateResourceHandler(uow, clock);
    const created = await create.execute(new CreateResourceCommand(serviceDefinition, organizationId, actor, { name: 'Billing' }));
    await new UpdateResourceHandler(uow, clock).execute(
      new UpdateResourceCommand(serviceDefinition, organizationId, actor, created.id, { description: 'invoices' }),
    );
    await new DeleteResourceHandler(uow, clock).execute(new DeleteResourceCommand(serviceDefinition, organizationId, actor, created.id));
    const rows = await outbox(organizationId);
    assert.deepEqual(
      rows.map((r) => [r.topic, r.aggregate_id, r.event.type, r.event.version, r.event.actor, r.event.aggregate_type]),
      [
        ['taproot.catalog', created.id, 'service.created', 1, actor, 'services'],
        ['taproot.catalog', created.id, 'service.updated', 1, actor, 'services'],
        ['taproot.catalog', created.id, 'service.deleted', 1, actor, 'services'],
      ],
    );
    assert.equal(rows[0].event.payload.name, 'Billing');
    assert.equal(rows[0].event.payload.slug, 'billing');
    assert.equal(rows[0].event.occurred_at, '2026-11-23T10:00:00.000Z');
    assert.equal(rows[1].event.payload.description, 'invoices');
    const [{ left }] = await ds.query('SELECT count(*)::int AS left FROM services WHERE id = $1', [created.id]);
    assert.equal(left, 0);
  });

  test('slugs stay unique within an organization and may repeat across organizations', async () => {
    const a = await newOrg();
    const b = await newOrg();
    const create = new CreateResourceHandler(uow, clock);
    const s1 = await create.execute(new CreateResourceCommand(serviceDefinition, a.organizationId, actor, { name: 'Edge' }));
    const s2 = await create.execute(new CreateResourceCommand(serviceDefinition, a.organizationId, actor, { name: 'edge' }));
    const s3 = await create.execute(new CreateResourceCommand(serviceDefinition, b.organizationId, actor, { name: 'Edge' }));
    assert.deepEqual([s1.slug, s2.slug, s3.slug], ['edge', 'edge-2', 'edge']);
  });

  test('concurrent creates of one name take distinct slugs without taking turns (the unique index decides)', async () => {
    const { organizationId } = await newOrg();
    const create = new CreateResourceHandler(uow, clock);
    const created = await Promise.all(
      Array.from({ length: 4 }, () => create.execute(new CreateResourceCommand(serviceDefinition, organizationId, actor, { name: 'Race' }))),
    );
    assert.deepEqual(created.map((s) => s.slug).sort(), ['race', 'race-2', 'race-3', 'race-4']);
    const [{ read }] = await ds.query('SELECT count(DISTINCT slug)::int AS read FROM services_read WHERE organization_id = $1', [organizationId]);
    assert.equal(read, 4);
  });

  test('a refused update changes nothing and writes no event', async () => {
    const { organizationId } = await newOrg();
    const update = new UpdateResourceHandler(uow, clock);
    await assert.rejects(
      update.execute(new UpdateResourceCommand(serviceDefinition, organizationId, actor, randomUUID(), { name: 'ghost' })),
      /No services with id/,
    );
    assert.equal((await outbox(organizationId)).length, 0);
  });

  test('the read model applies a batch in one upsert and one delete; each record’s last event decides its row', async () => {
    const { organizationId } = await newOrg();
    const projection = new ResourceListProjection(serviceDefinition);
    // A full snapshot, as a create's event carries it.
    const template = await new CreateResourceHandler(uow, clock).execute(new CreateResourceCommand(serviceDefinition, organizationId, actor, { name: 'Template' }));
    const event = (type: string, id: string, name: string): DomainEvent =>
      domainEvent({ type, organizationId, aggregateType: 'services', aggregateId: id, actor, payload: { ...template, id, name, slug: name.toLowerCase() } });
    const [kept, renamed, dropped] = [randomUUID(), randomUUID(), randomUUID()];
    await ds.transaction((m) => projection.applyBatch([event('service.created', dropped, 'Dropped')], m));
    const batch = [
      event('service.created', kept, 'Kept'),
      event('service.created', renamed, 'First'),
      event('service.updated', renamed, 'Second'),
      event('service.deleted', dropped, 'Dropped'),
      ...Array.from({ length: 20 }, (_, i) => event('service.created', randomUUID(), `Many ${i}`)),
    ];
    let statements = 0;
    await ds.transaction(async (m) => {
      const counted = new Proxy(m, { get: (target, key) => (key === 'query' ? (...args: Parameters<EntityManager['query']>) => (statements++, target.query(...args)) : Reflect.get(target, key)) });
      await projection.applyBatch(batch, counted);
    });
    assert.equal(statements, 2, 'the delete and the upsert');
    const rows: { id: string; name: string }[] = await ds.query('SELECT id, name FROM services_read WHERE organization_id = $1', [organizationId]);
    const names = new Map(rows.map((r) => [r.id, r.name]));
    assert.equal(rows.length, 23, 'the template, kept, renamed and the twenty');
    assert.equal(names.get(kept), 'Kept');
    assert.equal(names.get(renamed), 'Second');
    assert.equal(names.has(dropped), false);
  });
});
