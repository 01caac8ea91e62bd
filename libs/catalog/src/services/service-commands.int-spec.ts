import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createOrganization } from '@taproot/identity';
import type { DomainEvent, UnitOfWork } from '@taproot/messaging';
import { openTestDataSource } from '@taproot/persistence';
import type { DataSource } from 'typeorm';
import {
  CreateResourceCommand,
  CreateResourceHandler,
  DeleteResourceCommand,
  DeleteResourceHandler,
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
});
