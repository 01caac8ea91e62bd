import type { Queryable } from '@taproot/json-api';
import type { NOTIFICATION_TYPES } from './notification-rule.schema';

/**
 * How a paged user is reached: what the paging engine (alerting) asks of identity, read from the
 * users' read models only (docs/contact-methods.md).
 */
export interface ContactPlan {
  userId: number;
  name: string | null;
  /** The address the user signs in with. */
  email: string;
  emailAddresses: { id: string; email: string; primary: boolean; verified_at: string | null }[];
  phoneNumbers: { id: string; phone: string; primary: boolean; verified_at: string | null }[];
  notificationRules: {
    id: string;
    enabled_contact_types: string[];
    notification_type: NotificationType;
    delay: number | null;
    position: number;
    user_email_address_id: string | null;
    user_call_number_id: string | null;
    user_sms_number_id: string | null;
  }[];
}

export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

export interface Delivery {
  channel: 'email' | 'sms' | 'call';
  address: string;
  delayMinutes: number;
}

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : ((value as string | null) ?? null));

/** The contact plans of the organization's users among `userIds`, by user id; other users are absent. */
export async function contactPlansOf(db: Queryable, organizationId: string, userIds: readonly number[]): Promise<Map<number, ContactPlan>> {
  const ids = [...new Set(userIds.filter((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647))];
  if (ids.length === 0) return new Map();
  const params = [organizationId, ids];
  // One after the other: inside the paging engine's transaction they share its one connection.
  const read = (sql: string) => db.query(sql, params) as Promise<Record<string, unknown>[]>;
  const users = await read('SELECT id, full_name, email FROM users_view WHERE organization_id = $1 AND id = ANY($2::int[])');
  const emails = await read('SELECT id::text, user_id, email, "primary", verified_at FROM user_email_addresses_read WHERE organization_id = $1 AND user_id = ANY($2::int[]) ORDER BY created_at, id');
  const phones = await read('SELECT id::text, user_id, phone, "primary", verified_at FROM user_phone_numbers_read WHERE organization_id = $1 AND user_id = ANY($2::int[]) ORDER BY created_at, id');
  const rules = await read(
    `SELECT id::text, user_id, enabled_contact_types, notification_type, delay, position, user_email_address_id::text, user_call_number_id::text, user_sms_number_id::text
         FROM user_notification_rules_read WHERE organization_id = $1 AND user_id = ANY($2::int[]) ORDER BY position, created_at, id`,
  );
  const plans = new Map<number, ContactPlan>(
    users.map((u) => [Number(u.id), { userId: Number(u.id), name: (u.full_name as string | null) ?? null, email: String(u.email), emailAddresses: [], phoneNumbers: [], notificationRules: [] }]),
  );
  for (const { user_id, verified_at, ...row } of emails) plans.get(Number(user_id))?.emailAddresses.push({ ...(row as { id: string; email: string; primary: boolean }), verified_at: iso(verified_at) });
  for (const { user_id, verified_at, ...row } of phones) plans.get(Number(user_id))?.phoneNumbers.push({ ...(row as { id: string; phone: string; primary: boolean }), verified_at: iso(verified_at) });
  for (const { user_id, ...row } of rules) plans.get(Number(user_id))?.notificationRules.push(row as ContactPlan['notificationRules'][number]);
  return plans;
}

/** The contact types Taproot delivers itself; slack, devices and the rest are not sent yet. */
const DELIVERED = ['email', 'sms', 'call'] as const;

/**
 * Whom to send what, and when, for a page of that notification type: each of the user's rules of
 * that type (by position), each delivered contact type it enables, to the address the rule names or
 * the user's default one (e-mail: the primary address, else the sign-in address; SMS and calls: the
 * primary number, else the oldest). Rules that yield nothing, or none, mean one e-mail at once: a
 * paged user is always told. Each (channel, address) once, at its smallest delay.
 */
export function deliveriesOf(plan: ContactPlan, notificationType: NotificationType): Delivery[] {
  const email = (id: string | null) => plan.emailAddresses.find((a) => a.id === id)?.email ?? plan.emailAddresses.find((a) => a.primary)?.email ?? plan.email;
  const phone = (id: string | null) => (plan.phoneNumbers.find((n) => n.id === id) ?? plan.phoneNumbers.find((n) => n.primary) ?? plan.phoneNumbers[0])?.phone;
  const rules = plan.notificationRules.filter((rule) => rule.notification_type === notificationType).sort((a, b) => a.position - b.position);
  const found = new Map<string, Delivery>();
  for (const rule of rules) {
    for (const channel of DELIVERED.filter((type) => rule.enabled_contact_types.includes(type))) {
      const address = channel === 'email' ? email(rule.user_email_address_id) : phone(channel === 'sms' ? rule.user_sms_number_id : rule.user_call_number_id);
      if (!address) continue;
      const delayMinutes = rule.delay ?? 0;
      const key = `${channel} ${address}`;
      const earlier = found.get(key);
      if (!earlier || delayMinutes < earlier.delayMinutes) found.set(key, { channel, address, delayMinutes });
    }
  }
  if (found.size === 0) return [{ channel: 'email', address: email(null), delayMinutes: 0 }];
  return [...found.values()].sort((a, b) => a.delayMinutes - b.delayMinutes);
}
