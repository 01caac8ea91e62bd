import { defineResource, JsonApiError } from '@taproot/json-api';
import type { Row, WriteContext } from '@taproot/resources';
import { IdentityErrorCode } from '../errors';
import { underUser, uniqueForUser, USER_ID, userRecords } from '../users/user-parent';

/** E.164: a plus, a country code that does not start with 0, at most 15 digits in all. */
const E164 = /^\+[1-9][0-9]{1,14}$/;

/** A user's phone number (reference: `user_phone_number`), in E.164. Verifying it by SMS comes with paging. */
export const phoneNumberSchema = defineResource({
  type: 'user_phone_numbers',
  singular: 'user_phone_number',
  path: '/v1/phone_numbers',
  // Notification rules name their e-mail address or phone numbers and keep them (docs/contact-methods.md).
  deleteRefusedWhileNamedBy: ['user_notification_rules'],
  readTable: 'user_phone_numbers_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // The reference's names of the list and get.
  operationIds: { list: 'getUserPhoneNumbers', get: 'showUserPhoneNumber' },
  parent: underUser('phone_numbers'),
  attributes: {
    user_id: USER_ID,
    phone: { type: 'string', required: true, filter: ['eq'], description: 'Phone number in international format (E.164, e.g. +14155550100)' },
    primary: { type: 'boolean', writable: false, default: false, description: 'Whether this is the primary phone number' },
    verified_at: { type: 'date-time', nullable: true, writable: false, description: 'Date when phone number was verified' },
    verification_attempts_today: { type: 'integer', writable: false, default: 0, description: 'Number of verification attempts made today' },
  },
});

/** The number as stored: E.164, once per user (422 naming `phone` otherwise). */
async function checked(ctx: WriteContext, userId: unknown, phone: unknown, id: unknown): Promise<void> {
  if (typeof phone !== 'string' || !E164.test(phone)) {
    throw JsonApiError.invalidAttributes([{ attribute: 'phone', detail: 'phone must be in E.164 format: + then the country code and number, 15 digits at most (+14155550100)', code: IdentityErrorCode.InvalidAttribute }]);
  }
  await uniqueForUser(ctx, 'user_phone_numbers', 'phone', phone, userId, id);
}

export const phoneNumberDefinition = userRecords(phoneNumberSchema, 'user_phone_numbers', {
  async beforeCreate(attributes: Row, ctx) {
    await checked(ctx, attributes.user_id, attributes.phone, null);
    return attributes;
  },
  async beforeUpdate(current, changes, ctx) {
    if (!('phone' in changes) || changes.phone === current.phone) return changes;
    await checked(ctx, current.user_id, changes.phone, current.id);
    // A new number is not the one that was verified.
    return { ...changes, verified_at: null };
  },
});
