import { defineResource, existingIds, JsonApiError, type AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { checkUrgency } from '../alerts/alert-writes';
import { requireRecords, type RecordKind } from '../alerts/notification-targets';
import { AlertingErrorCode } from '../errors';

export const LIVE_CALL_COUNTRIES = ['AU', 'CA', 'DE', 'NL', 'NZ', 'SE', 'CH', 'GB', 'US'] as const;
export const LIVE_CALL_PHONE_TYPES = ['local', 'toll_free', 'mobile'] as const;
export const WAITING_MUSIC_URLS = [
  'https://storage.rootly.com/twilio/voicemail/ClockworkWaltz.mp3',
  'https://storage.rootly.com/twilio/voicemail/ith_brahms-116-4.mp3',
  'https://storage.rootly.com/twilio/voicemail/Mellotroniac_-_Flight_Of_Young_Hearts_Flute.mp3',
  'https://storage.rootly.com/twilio/voicemail/BusyStrings.mp3',
  'https://storage.rootly.com/twilio/voicemail/oldDog_-_endless_goodbye_%28instr.%29.mp3',
  'https://storage.rootly.com/twilio/voicemail/MARKOVICHAMP-Borghestral.mp3',
  'https://storage.rootly.com/twilio/voicemail/ith_chopin-15-2.mp3',
] as const;

const TRIGGER_TYPES = ['service', 'group', 'escalation_policy', 'functionality', 'Service', 'Group', 'EscalationPolicy', 'Functionality'] as const;
/** A direct target's type as the reference (and the hosted API's SDK) answers it. */
const ANSWERED_TYPE: Record<string, string> = { service: 'Service', group: 'Group', escalation_policy: 'EscalationPolicy', functionality: 'Functionality' };

/** E.164: a plus, a country code and at most 15 digits in all. */
export const E164 = /^\+[1-9]\d{6,14}$/;

const text = (description: string, more: Partial<AttributeDef> = {}): AttributeDef => ({ type: 'string', nullable: true, description, ...more });
/** Unset is answered by leaving it out: the reference's answer declares these non-nullable. */
const unsetText = (description: string, more: Partial<AttributeDef> = {}): AttributeDef => text(description, { omitWhenNull: true, ...more });
const flag = (description: string, fallback: boolean): AttributeDef => ({ type: 'boolean', default: fallback, description });

/**
 * A live call router (docs/live-call-routers.md): a phone number whose calls page on-call
 * responders, live or through voicemail, directly (`escalation_policy_trigger_params`) or through a
 * phone tree (`paging_targets`). Taproot places no calls: it keeps the configuration the hosted
 * API's clients manage, and checks every record it names.
 */
export const liveCallRouterSchema = defineResource({
  type: 'live_call_routers',
  singular: 'live_call_router',
  path: '/v1/live_call_routers',
  readTable: 'live_call_routers_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the live_call_router' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: 'The slug of the live_call_router' },
    kind: { type: 'string', required: true, enum: ['voicemail', 'live'], filter: true, description: 'The kind of the live_call_router' },
    enabled: flag('Whether the live_call_router is enabled', true),
    country_code: { type: 'string', required: true, enum: LIVE_CALL_COUNTRIES, description: 'The country code of the live_call_router' },
    phone_type: { type: 'string', required: true, enum: LIVE_CALL_PHONE_TYPES, description: 'The phone type of the live_call_router' },
    phone_number: { type: 'string', required: true, writable: 'create', maxLength: 16, description: 'The E.164 phone number callers dial (see generate_phone_number)' },
    voicemail_greeting: { type: 'string', required: true, maxLength: 10000, description: 'The voicemail greeting of the live_call_router' },
    caller_greeting: unsetText('The caller greeting message of the live_call_router', { maxLength: 10000 }),
    waiting_music_url: unsetText('The waiting music URL of the live_call_router', { enum: WAITING_MUSIC_URLS }),
    sent_to_voicemail_delay: { type: 'integer', nullable: true, omitWhenNull: true, minimum: 0, maximum: 3600, description: 'The delay (seconds) after which the caller in redirected to voicemail' },
    should_redirect_to_voicemail_on_no_answer: flag('This prompts the caller to choose voicemail or connect live', false),
    escalation_level_delay_in_seconds: { type: 'integer', nullable: true, omitWhenNull: true, minimum: 0, maximum: 86400, description: 'This overrides the delay (seconds) in escalation levels' },
    should_auto_resolve_alert_on_call_end: flag('Whether the alert of a call resolves when the call ends', false),
    alert_urgency_id: unsetText('This is used in escalation paths to determine who to page', { format: 'uuid' }),
    calling_tree_enabled: flag('Whether callers press a key (paging_targets) before being connected', false),
    calling_tree_prompt: unsetText('The audio instructions callers hear before choosing a paging target', { maxLength: 10000 }),
    paging_targets: {
      type: 'array',
      default: [],
      maxLength: 9,
      description: 'Paging targets that callers can select from when this live call router is configured as a phone tree.',
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', required: true, description: 'The ID of paging target' },
          type: { type: 'string', required: true, enum: ['service', 'team', 'escalation_policy', 'functionality'], description: 'The type of the paging target' },
          alert_urgency_id: { type: 'string', required: true, description: 'This is used in escalation paths to determine who to page' },
        },
      },
    },
    escalation_policy_trigger_params: {
      type: 'object',
      nullable: true,
      omitWhenNull: true,
      description: 'Whom a call pages without a phone tree',
      properties: {
        id: { type: 'string', required: true, description: 'The ID of notification target' },
        // The reference's create spells it `service`, its update and answer `Service`: either is taken, answered as the reference answers it.
        type: { type: 'string', required: true, enum: TRIGGER_TYPES, description: 'The type of the notification target' },
      },
    },
    notify_via_sms: flag('Whether responders are also notified via SMS when this router pages them', false),
    notify_via_push_notification: flag('Whether responders are also notified via push notification when this router pages them', false),
    informational_notification_message: text('Optional message included in the SMS/push notification', { maxLength: 160 }),
    unavailable_responder_message: text("The message played to the caller when a responder doesn't answer", { maxLength: 300 }),
  },
});

/** What each target type names, through the lookups alerting already pages with. */
const TARGET_KINDS: Record<string, RecordKind> = {
  service: 'services',
  team: 'groups',
  group: 'groups',
  escalation_policy: 'escalation_policies',
  functionality: 'functionalities',
  Service: 'services',
  Group: 'groups',
  EscalationPolicy: 'escalation_policies',
  Functionality: 'functionalities',
};

/** The router as a write leaves it: its number's form and uniqueness, its urgencies and every record its targets name (422 naming the attribute). */
async function checked(ctx: WriteContext, changes: Row, currentId?: string): Promise<Row> {
  if ('phone_number' in changes) {
    const number = String(changes.phone_number ?? '');
    if (!E164.test(number)) throw JsonApiError.invalidAttributes([{ attribute: 'phone_number', detail: `phone_number must be an E.164 number such as +14155550100 (got ${JSON.stringify(number)})`, code: AlertingErrorCode.InvalidValue }]);
    const taken = (await ctx.manager.query('SELECT 1 FROM live_call_routers WHERE organization_id = $1 AND phone_number = $2 AND id IS DISTINCT FROM $3', [ctx.organizationId, number, currentId ?? null])) as unknown[];
    if (taken.length) throw JsonApiError.invalidAttributes([{ attribute: 'phone_number', detail: `phone_number ${number} already routes another live call router`, code: 'TAKEN' }]);
  }
  await checkUrgency(ctx, changes);
  const targets = Array.isArray(changes.paging_targets) ? (changes.paging_targets as Row[]) : [];
  const urgencies = targets.map((t) => String(t.alert_urgency_id));
  const known = await existingIds(ctx.manager, 'alert_urgencies', ctx.organizationId, urgencies);
  const unknownUrgency = targets.findIndex((t) => !known.has(String(t.alert_urgency_id).toLowerCase()));
  if (unknownUrgency >= 0) {
    const id = String(targets[unknownUrgency].alert_urgency_id);
    throw JsonApiError.invalidAttributes([{ attribute: `paging_targets/${unknownUrgency}/alert_urgency_id`, detail: `paging_targets[${unknownUrgency}].alert_urgency_id: ${id} is not an alert urgency of this organization`, code: AlertingErrorCode.UnknownAlertUrgency }]);
  }
  const records = targets.map((t, i) => ({ kind: TARGET_KINDS[String(t.type)], id: String(t.id), attribute: `paging_targets/${i}/id` }));
  const trigger = changes.escalation_policy_trigger_params as Row | null | undefined;
  if (trigger) records.push({ kind: TARGET_KINDS[String(trigger.type)], id: String(trigger.id), attribute: 'escalation_policy_trigger_params/id' });
  await requireRecords(ctx, records);
  return trigger ? { ...changes, escalation_policy_trigger_params: { ...trigger, type: ANSWERED_TYPE[String(trigger.type)] ?? trigger.type } } : changes;
}

export const liveCallRouterDefinition: ResourceDefinition = {
  schema: liveCallRouterSchema,
  context: 'alerting',
  table: 'live_call_routers',
  permission: { family: 'live_call_routing' },
  rules: {
    beforeCreate: (attributes, ctx) => checked(ctx, attributes),
    beforeUpdate: (current, changes, ctx) => checked(ctx, changes, String(current.id)),
  },
};
