import { describe, expect, test } from '@jest/globals';
import { deliveriesOf, type ContactPlan } from './contact-plan';

type Rule = ContactPlan['notificationRules'][number];

const rule = (position: number, enabled_contact_types: string[], extra: Partial<Rule> = {}): Rule => ({
  id: `rule-${position}`,
  enabled_contact_types,
  notification_type: 'audible',
  delay: null,
  position,
  user_email_address_id: null,
  user_call_number_id: null,
  user_sms_number_id: null,
  ...extra,
});

const plan = (extra: Partial<ContactPlan> = {}): ContactPlan => ({
  userId: 7,
  name: 'Ann Smith',
  email: 'ann@example.test',
  emailAddresses: [
    { id: 'work', email: 'ann@work.test', primary: false, verified_at: '2026-11-01T00:00:00.000Z' },
    { id: 'home', email: 'ann@home.test', primary: false, verified_at: null },
  ],
  phoneNumbers: [
    { id: 'mobile', phone: '+14155550100', primary: false, verified_at: null },
    { id: 'desk', phone: '+14155550199', primary: false, verified_at: null },
  ],
  notificationRules: [],
  ...extra,
});

describe('deliveriesOf', () => {
  test('no rules, or none of that type: one e-mail at once to the sign-in address, or the primary one', () => {
    expect(deliveriesOf(plan(), 'audible')).toEqual([{ channel: 'email', address: 'ann@example.test', delayMinutes: 0 }]);
    expect(deliveriesOf(plan({ notificationRules: [rule(1, ['sms'], { notification_type: 'quiet', delay: 3 })] }), 'audible')).toEqual([
      { channel: 'email', address: 'ann@example.test', delayMinutes: 0 },
    ]);
    const primary = plan({ emailAddresses: [...plan().emailAddresses, { id: 'p', email: 'ann@primary.test', primary: true, verified_at: null }] });
    expect(deliveriesOf(primary, 'quiet')).toEqual([{ channel: 'email', address: 'ann@primary.test', delayMinutes: 0 }]);
  });

  test("the rules of that type in position order, each delivered contact type to the rule's address, after its delay", () => {
    const rules = [
      rule(2, ['call'], { delay: 10, user_call_number_id: 'desk' }),
      rule(1, ['email', 'sms'], { delay: 0, user_email_address_id: 'work', user_sms_number_id: 'mobile' }),
      rule(3, ['email'], { notification_type: 'quiet', delay: 1, user_email_address_id: 'home' }),
    ];
    expect(deliveriesOf(plan({ notificationRules: rules }), 'audible')).toEqual([
      { channel: 'email', address: 'ann@work.test', delayMinutes: 0 },
      { channel: 'sms', address: '+14155550100', delayMinutes: 0 },
      { channel: 'call', address: '+14155550199', delayMinutes: 10 },
    ]);
    expect(deliveriesOf(plan({ notificationRules: rules }), 'quiet')).toEqual([{ channel: 'email', address: 'ann@home.test', delayMinutes: 1 }]);
  });

  test('without a named method: the primary e-mail (else the sign-in one); the primary number, else the oldest', () => {
    expect(deliveriesOf(plan({ notificationRules: [rule(1, ['email', 'sms', 'call'], { delay: 2 })] }), 'audible')).toEqual([
      { channel: 'email', address: 'ann@example.test', delayMinutes: 2 },
      { channel: 'sms', address: '+14155550100', delayMinutes: 2 },
      { channel: 'call', address: '+14155550100', delayMinutes: 2 },
    ]);
    const phones = [plan().phoneNumbers[0], { ...plan().phoneNumbers[1], primary: true }];
    expect(deliveriesOf(plan({ phoneNumbers: phones, notificationRules: [rule(1, ['call'])] }), 'audible')).toEqual([{ channel: 'call', address: '+14155550199', delayMinutes: 0 }]);
  });

  test('contact types Taproot does not deliver are skipped, as are sms and calls without a number; rules yielding nothing still e-mail', () => {
    const noPhone = plan({ phoneNumbers: [] });
    expect(deliveriesOf({ ...noPhone, notificationRules: [rule(1, ['slack', 'device', 'sms', 'email'], { delay: 4 })] }, 'audible')).toEqual([
      { channel: 'email', address: 'ann@example.test', delayMinutes: 4 },
    ]);
    expect(deliveriesOf({ ...noPhone, notificationRules: [rule(1, ['slack', 'google_chat', 'call'], { delay: 4 })] }, 'audible')).toEqual([
      { channel: 'email', address: 'ann@example.test', delayMinutes: 0 },
    ]);
  });

  test('each channel and address once, at its smallest delay', () => {
    const rules = [rule(1, ['email'], { delay: 15 }), rule(2, ['email', 'sms'], { delay: 5 }), rule(3, ['sms'], { delay: 1, user_sms_number_id: 'desk' }), rule(4, ['sms'], { delay: 30 })];
    expect(deliveriesOf(plan({ notificationRules: rules }), 'audible')).toEqual([
      { channel: 'sms', address: '+14155550199', delayMinutes: 1 },
      { channel: 'email', address: 'ann@example.test', delayMinutes: 5 },
      { channel: 'sms', address: '+14155550100', delayMinutes: 5 },
    ]);
  });
});
