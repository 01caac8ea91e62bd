import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { UnitOfWork } from '@taproot/messaging';
import { openTestDataSource } from '@taproot/persistence';
import { CreateResourceCommand, CreateResourceHandler, unitOfWorkWithReadModels, type ResourceDefinition, type Row } from '@taproot/resources';
import type { DataSource } from 'typeorm';
import { createOrganization } from '../bootstrap/bootstrap-organization';
import { emailAddressDefinition } from '../email-addresses/email-address.schema';
import { phoneNumberDefinition } from '../phone-numbers/phone-number.schema';
import { OperatorUsers } from '../users/operator-users';
import { CONTACT_METHOD_RESOURCES } from '../contact-methods.module';
import { contactPlansOf, deliveriesOf } from './contact-plan';
import { notificationRuleDefinition } from './notification-rule.schema';

const actor = { kind: 'api_key' as const, id: randomUUID() };
let tick = Date.parse('2026-11-23T10:00:00.000Z');
const clock = { now: () => new Date((tick += 1000)) };

describe('contact plans (what the paging engine asks of identity)', () => {
  let ds: DataSource;
  let uow: UnitOfWork;
  before(async () => {
    ds = await openTestDataSource();
    uow = unitOfWorkWithReadModels(ds, CONTACT_METHOD_RESOURCES);
  });
  after(() => ds.destroy());

  const newOrg = async () => (await ds.transaction((m) => createOrganization(m, { name: 'Contacts', ownerEmail: `${randomUUID()}@example.test` }))).organizationId;
  const addUser = async (organizationId: string, name: string) => {
    const email = `${name}-${randomUUID()}@example.test`;
    return { id: (await new OperatorUsers(ds, clock).add(organizationId, { email, name, role: null })).user_id, email };
  };
  /** A record of the user through the generic create, its read model written with it. */
  const create = async (definition: ResourceDefinition, organizationId: string, userId: number, attributes: Row): Promise<string> =>
    (await new CreateResourceHandler(uow, clock).execute(new CreateResourceCommand(definition, organizationId, actor, attributes, String(userId)))).id;

  test("each user's name, e-mail, addresses, numbers and rules; other organizations' users and unknown ids are absent", async () => {
    const [mine, theirs] = [await newOrg(), await newOrg()];
    const ann = await addUser(mine, 'Ann Smith');
    const bob = await addUser(mine, 'Bob');
    const other = await addUser(theirs, 'Eve');
    const work = await create(emailAddressDefinition, mine, ann.id, { email: 'ann@work.test' });
    const mobile = await create(phoneNumberDefinition, mine, ann.id, { phone: '+14155550100' });
    const late = await create(notificationRuleDefinition, mine, ann.id, { enabled_contact_types: ['call'], delay: 10, position: 2, user_call_number_id: mobile });
    const early = await create(notificationRuleDefinition, mine, ann.id, { enabled_contact_types: ['email', 'sms', 'slack'], position: 1, user_email_address_id: work });
    await create(emailAddressDefinition, theirs, other.id, { email: 'eve@elsewhere.test' });

    const plans = await contactPlansOf(ds, mine, [ann.id, bob.id, other.id, ann.id, -1, 0.5, 99_999_999]);
    expect([...plans.keys()].sort()).toEqual([ann.id, bob.id].sort());
    expect(plans.get(ann.id)).toEqual({
      userId: ann.id,
      name: 'Ann Smith',
      email: ann.email,
      emailAddresses: [{ id: work, email: 'ann@work.test', primary: false, verified_at: null }],
      phoneNumbers: [{ id: mobile, phone: '+14155550100', primary: false, verified_at: null }],
      notificationRules: [
        { id: early, enabled_contact_types: ['email', 'sms', 'slack'], notification_type: 'audible', delay: null, position: 1, user_email_address_id: work, user_call_number_id: null, user_sms_number_id: null },
        { id: late, enabled_contact_types: ['call'], notification_type: 'audible', delay: 10, position: 2, user_email_address_id: null, user_call_number_id: mobile, user_sms_number_id: null },
      ],
    });
    expect(plans.get(bob.id)).toEqual({ userId: bob.id, name: 'Bob', email: bob.email, emailAddresses: [], phoneNumbers: [], notificationRules: [] });
    expect(deliveriesOf(plans.get(ann.id)!, 'audible')).toEqual([
      { channel: 'email', address: 'ann@work.test', delayMinutes: 0 },
      { channel: 'sms', address: '+14155550100', delayMinutes: 0 },
      { channel: 'call', address: '+14155550100', delayMinutes: 10 },
    ]);
    expect(deliveriesOf(plans.get(bob.id)!, 'audible')).toEqual([{ channel: 'email', address: bob.email, delayMinutes: 0 }]);

    expect([...(await contactPlansOf(ds, theirs, [ann.id, other.id])).keys()]).toEqual([other.id]);
    expect(await contactPlansOf(ds, mine, [])).toEqual(new Map());
  });
});
