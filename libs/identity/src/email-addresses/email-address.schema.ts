import { defineResource } from '@taproot/json-api';
import { domainEvent } from '@taproot/messaging';
import type { Row, WriteContext } from '@taproot/resources';
import { underUser, uniqueForUser, USER_ID, userRecords } from '../users/user-parent';
import { forgetVerifications } from './email-verification';

/** A user's e-mail address (reference: `user_email_address`); a new or changed address is unverified. */
export const emailAddressSchema = defineResource({
  type: 'user_email_addresses',
  singular: 'user_email_address',
  path: '/v1/email_addresses',
  // Notification rules name their e-mail address or phone numbers and keep them (docs/contact-methods.md).
  deleteRefusedWhileNamedBy: ['user_notification_rules'],
  readTable: 'user_email_addresses_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // The reference's names of the list and get.
  operationIds: { list: 'getUserEmailAddresses', get: 'showUserEmailAddress' },
  parent: underUser('email_addresses'),
  attributes: {
    user_id: USER_ID,
    email: { type: 'string', format: 'email', required: true, maxLength: 255, filter: ['eq'], description: 'Email address' },
    primary: { type: 'boolean', writable: false, default: false, description: 'Whether this is the primary email address' },
    verified_at: { type: 'date-time', nullable: true, writable: false, description: 'When the address was verified (POST /v1/email_addresses/{id}/verify); null until then' },
  },
});

export const EMAIL_ADDRESS_EVENTS = {
  /** The address waits for a verification mail: the mailer mints the token (`issueEmailVerificationToken`); the event carries none. */
  verificationRequested: `${emailAddressSchema.singular}.verification_requested`,
} as const;

export const emailAddressDefinition = userRecords(emailAddressSchema, 'user_email_addresses', {
  async beforeCreate(attributes: Row, ctx) {
    await uniqueForUser(ctx, 'user_email_addresses', 'email', String(attributes.email), attributes.user_id, null, true);
    return { ...attributes, verified_at: null };
  },
  async beforeUpdate(current, changes, ctx) {
    if (!('email' in changes) || String(changes.email).toLowerCase() === String(current.email).toLowerCase()) return changes;
    await uniqueForUser(ctx, 'user_email_addresses', 'email', String(changes.email), current.user_id, current.id, true);
    // What verified the old address verifies nothing about the new one.
    await forgetVerifications(ctx.manager, ctx.organizationId, String(current.id));
    return { ...changes, verified_at: null };
  },
  announce(snapshot, previous, ctx) {
    if (previous && String(previous.email).toLowerCase() === String(snapshot.email).toLowerCase()) return [];
    return [verificationRequested(snapshot, ctx)];
  },
});

/** `user_email_address.verification_requested`, carrying the address' snapshot (no token). */
export function verificationRequested(snapshot: Row & { id: string }, ctx: WriteContext) {
  return domainEvent({
    type: EMAIL_ADDRESS_EVENTS.verificationRequested,
    organizationId: ctx.organizationId,
    aggregateType: emailAddressSchema.type,
    aggregateId: snapshot.id,
    actor: ctx.actor,
    payload: snapshot,
    occurredAt: ctx.now,
  });
}
