import { defineResource, JsonApiError } from '@taproot/json-api';
import type { Row, WriteContext } from '@taproot/resources';
import { IdentityErrorCode } from '../errors';
import { underUser, USER_ID, userRecords } from '../users/user-parent';

export const CONTACT_TYPES = ['email', 'sms', 'call', 'device', 'non_critical_device', 'slack', 'google_chat'] as const;
export const NOTIFICATION_TYPES = ['audible', 'quiet'] as const;

/** Taproot's contact methods have uuids (the reference: any string); devices are not served yet. */
const contactMethod = (description: string) => ({ type: 'string', format: 'uuid', nullable: true, description }) as const;

/**
 * A user's notification rule (reference: `user_notification_rule`): which contact types to use,
 * after `delay` minutes, through which of the user's own contact methods. Who is paged when is the
 * paging engine's; this is what it will read.
 */
export const notificationRuleSchema = defineResource({
  type: 'user_notification_rules',
  singular: 'user_notification_rule',
  path: '/v1/notification_rules',
  readTable: 'user_notification_rules_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: underUser('notification_rules'),
  attributes: {
    user_id: USER_ID,
    enabled_contact_types: { type: 'array', required: true, items: { type: 'string', enum: CONTACT_TYPES }, description: 'Contact types for which notification needs to be enabled' },
    notification_type: { type: 'string', enum: NOTIFICATION_TYPES, writable: false, default: 'audible', description: 'Type of notification rule (audible or quiet)' },
    delay: { type: 'integer', nullable: true, minimum: 0, description: 'Delay after which rule gets triggered (minutes)' },
    position: { type: 'integer', nullable: true, alwaysStored: true, sortable: true, description: 'Position of the rule' },
    user_email_address_id: contactMethod('User email address to which notification to be sent'),
    user_call_number_id: contactMethod('User phone number to which notification to be sent'),
    user_sms_number_id: contactMethod('User sms number to which notification to be sent'),
    user_device_id: { type: 'string', nullable: true, description: 'User device to which notification to be sent (devices are not served yet: always null)' },
  },
});

/** Each contact method attribute: the table of the user's records it names, and what they are called; devices are not served yet. */
const CONTACT_METHODS: Record<string, { table: string; noun: string } | null> = {
  user_email_address_id: { table: 'user_email_addresses', noun: 'an email address' },
  user_call_number_id: { table: 'user_phone_numbers', noun: 'a phone number' },
  user_sms_number_id: { table: 'user_phone_numbers', noun: 'a phone number' },
  user_device_id: null,
};

/** Every contact method a rule names is the same user's (422 naming the attribute otherwise). */
async function checked(ctx: WriteContext, userId: unknown, changes: Row): Promise<Row> {
  const issues: { attribute: string; detail: string; code: string }[] = [];
  for (const [attribute, method] of Object.entries(CONTACT_METHODS)) {
    const id = changes[attribute];
    if (id === undefined || id === null) continue;
    const found = method ? await ctx.manager.query(`SELECT 1 FROM ${method.table} WHERE id = $1 AND organization_id = $2 AND user_id = $3`, [id, ctx.organizationId, userId]) : [];
    if (found.length === 0) {
      const detail = method ? `${attribute} ${String(id)} is not ${method.noun} of user ${String(userId)}` : `${attribute}: user devices are not served, so none can be named`;
      issues.push({ attribute, detail, code: IdentityErrorCode.UnknownContactMethod });
    }
  }
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
  return changes;
}

export const notificationRuleDefinition = userRecords(notificationRuleSchema, 'user_notification_rules', {
  beforeCreate: (attributes, ctx) => checked(ctx, attributes.user_id, attributes),
  beforeUpdate: (current, changes, ctx) => checked(ctx, current.user_id, changes),
});
