import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createOrganization } from '@taproot/identity';
import type { UnitOfWork } from '@taproot/messaging';
import { openTestDataSource } from '@taproot/persistence';
import { CreateResourceCommand, CreateResourceHandler, unitOfWorkWithReadModels, type ResourceDefinition, type Row } from '@taproot/resources';
import type { DataSource } from 'typeorm';
import { functionalityDefinition } from './functionalities/functionality.schema';
import { pagingTargetsOf } from './paging-targets';
import { serviceDefinition } from './services/service.schema';

const actor = { kind: 'api_key' as const, id: randomUUID() };
const clock = { now: () => new Date('2026-11-23T10:00:00.000Z') };

describe('paging targets (what the paging engine asks of the catalog)', () => {
  let ds: DataSource;
  let uow: UnitOfWork;
  before(async () => {
    ds = await openTestDataSource();
    uow = unitOfWorkWithReadModels(ds, [serviceDefinition, functionalityDefinition]);
  });
  after(() => ds.destroy());

  const newOrg = async () => (await ds.transaction((m) => createOrganization(m, { name: 'Paging targets', ownerEmail: `${randomUUID()}@example.test` }))).organizationId;
  const create = async (definition: ResourceDefinition, organizationId: string, attributes: Row): Promise<string> =>
    (await new CreateResourceHandler(uow, clock).execute(new CreateResourceCommand(definition, organizationId, actor, attributes))).id;

  test("services and functionalities: their escalation policy and owning teams, of the organization's records only", async () => {
    const [mine, theirs] = [await newOrg(), await newOrg()];
    const [policy, team, otherTeam] = [randomUUID(), randomUUID(), randomUUID()];
    const checkout = await create(serviceDefinition, mine, { name: 'Checkout', escalation_policy_id: policy, owner_group_ids: [team, otherTeam] });
    const search = await create(serviceDefinition, mine, { name: 'Search' });
    const login = await create(functionalityDefinition, mine, { name: 'Login', escalation_policy_id: policy, owner_group_ids: [team] });
    const elsewhere = await create(serviceDefinition, theirs, { name: 'Checkout', escalation_policy_id: randomUUID(), owner_group_ids: [team] });

    const services = await pagingTargetsOf(ds, mine, 'services', [checkout.toUpperCase(), search, elsewhere, login, 'checkout', randomUUID()]);
    expect(services).toEqual(
      new Map([
        [checkout, { escalationPolicyId: policy, owningTeamIds: [team, otherTeam] }],
        [search, { escalationPolicyId: null, owningTeamIds: [] }],
      ]),
    );
    expect(await pagingTargetsOf(ds, mine, 'functionalities', [login, checkout])).toEqual(new Map([[login, { escalationPolicyId: policy, owningTeamIds: [team] }]]));
    expect(await pagingTargetsOf(ds, theirs, 'services', [checkout, search])).toEqual(new Map());
    expect(await pagingTargetsOf(ds, mine, 'services', [])).toEqual(new Map());
  });
});
