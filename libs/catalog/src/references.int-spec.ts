import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createOrganization } from '@taproot/identity';
import type { UnitOfWork } from '@taproot/messaging';
import { openTestDataSource } from '@taproot/persistence';
import { CreateResourceCommand, CreateResourceHandler, unitOfWorkWithReadModels, type ResourceDefinition } from '@taproot/resources';
import type { DataSource } from 'typeorm';
import { catalogIdsByIdOrSlug, catalogIdsNamed, catalogRecords, existingCatalogIds } from './references';
import { serviceDefinition } from './services/service.schema';
import { severityDefinition } from './severities/severity.schema';

const actor = { kind: 'api_key' as const, id: randomUUID() };
const clock = { now: () => new Date('2026-11-23T10:00:00.000Z') };

describe('catalog references (what other contexts may ask of the catalog)', () => {
  let ds: DataSource;
  let uow: UnitOfWork;
  before(async () => {
    ds = await openTestDataSource();
    uow = unitOfWorkWithReadModels(ds, [serviceDefinition, severityDefinition]);
  });
  after(() => ds.destroy());

  const newOrg = async () => (await ds.transaction((m) => createOrganization(m, { name: 'References', ownerEmail: 'r@example.test' }))).organizationId;
  /** Creates a record; its read model row commits with it (inline projection). */
  const create = async (definition: ResourceDefinition, organizationId: string, name: string): Promise<string> => {
    const { id } = await new CreateResourceHandler(uow, clock).execute(new CreateResourceCommand(definition, organizationId, actor, { name }));
    return id;
  };

  test('existingCatalogIds answers the ids of that type in that organization only', async () => {
    const [mine, theirs] = [await newOrg(), await newOrg()];
    const service = await create(serviceDefinition, mine, 'Checkout');
    const other = await create(serviceDefinition, theirs, 'Checkout');
    const severity = await create(severityDefinition, mine, 'SEV1');
    const found = await existingCatalogIds(ds, mine, 'services', [service, other, severity, 'checkout', randomUUID()]);
    assert.deepEqual([...found], [service]);
    assert.deepEqual([...(await existingCatalogIds(ds, mine, 'severities', [severity, service]))], [severity]);
  });

  test('catalogIdsByIdOrSlug maps each value naming a record of the organization by id or slug to its id', async () => {
    const [mine, theirs] = [await newOrg(), await newOrg()];
    const checkout = await create(serviceDefinition, mine, 'Elasticsearch Prod');
    const other = await create(serviceDefinition, theirs, 'Search');
    const severity = await create(severityDefinition, mine, 'Search');
    const found = await catalogIdsByIdOrSlug(ds, mine, 'services', ['elasticsearch-prod', checkout.toUpperCase(), other, 'search', severity, 'nothing']);
    assert.deepEqual([...found], [
      ['elasticsearch-prod', checkout],
      [checkout.toUpperCase(), checkout],
    ]);
    assert.deepEqual([...(await catalogIdsByIdOrSlug(ds, mine, 'severities', ['search']))], [['search', severity]]);
    assert.equal((await catalogIdsByIdOrSlug(ds, mine, 'services', [])).size, 0);
  });

  test('catalogRecords serializes read-model records; catalogIdsNamed finds them by name or slug', async () => {
    const org = await newOrg();
    const a = await create(serviceDefinition, org, 'Payments API');
    const b = await create(serviceDefinition, org, 'Search');
    const records = await catalogRecords(ds, org, 'services', [a, b, randomUUID()]);
    assert.deepEqual([...records.keys()].sort(), [a, b].sort());
    assert.equal(records.get(a)?.type, 'services');
    assert.equal(records.get(a)?.attributes.slug, 'payments-api');
    assert.deepEqual(await catalogIdsNamed(ds, org, 'services', ['payments-api']), [a]);
    assert.deepEqual((await catalogIdsNamed(ds, org, 'services', ['Payments API', 'search'])).sort(), [a, b].sort());
    assert.deepEqual(await catalogIdsNamed(ds, org, 'services', ['payments-api'], ['name']), [], 'slugs are not names');
  });
});
