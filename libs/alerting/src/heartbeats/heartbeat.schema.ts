import { randomBytes, randomUUID } from 'node:crypto';
import { defineResource, JsonApiError, type AttributeDef } from '@taproot/json-api';
import { unknownTeams } from '../alert-routes/route-rules';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { checkUrgency } from '../alerts/alert-writes';
import { NOTIFICATION_TARGET_TYPES } from '../alerts/alert.schema';
import { requireAlertReferences } from '../alerts/notification-targets';
import { AlertingErrorCode } from '../errors';
import { deadlineAfter, HEARTBEAT_INTERVAL_UNITS, intervalMs, MAX_INTERVAL_MS, type HeartbeatIntervalUnit } from './heartbeat-interval';

export const HEARTBEAT_STATUSES = ['waiting', 'active', 'expired'] as const;

const text = (description: string, more: Partial<AttributeDef> = {}): AttributeDef => ({ type: 'string', nullable: true, description, ...more });
const output = (description: string, more: Partial<AttributeDef> = {}): AttributeDef => text(description, { writable: false, ...more });

/**
 * A heartbeat (reference `heartbeat`): a job pings it at least every `interval` `interval_unit`;
 * when a ping is late it expires and an alert pages its notification target (docs/heartbeats.md).
 * `status`, `last_pinged_at` and `expires_at` are the monitor's; `secret`, `ping_url` and
 * `email_address` are generated on create.
 */
export const heartbeatSchema = defineResource({
  type: 'heartbeats',
  singular: 'heartbeat',
  path: '/v1/heartbeats',
  readTable: 'heartbeats_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // The reference declares PUT; PATCH is served too (the same update), for clients that send it.
  updateMethod: 'both',
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the heartbeat' },
    description: text('The description of the heartbeat', { maxLength: 10000, searchable: true }),
    alert_summary: { type: 'string', required: true, minLength: 1, maxLength: 10000, description: 'Summary of alerts triggered when heartbeat expires.' },
    alert_description: text('Description of alerts triggered when heartbeat expires.', { maxLength: 100000 }),
    alert_urgency_id: text('Urgency of alerts triggered when heartbeat expires.', { format: 'uuid' }),
    interval: { type: 'integer', required: true, minimum: 1, maximum: 527040, description: 'How long a ping is awaited, in interval_unit (at most a year in all)' },
    interval_unit: { type: 'string', required: true, enum: HEARTBEAT_INTERVAL_UNITS, description: 'The unit of interval' },
    notification_target_id: { type: 'string', required: true, minLength: 1, description: 'Whom the expiry alert pages' },
    notification_target_type: { type: 'string', required: true, enum: NOTIFICATION_TARGET_TYPES, description: 'The type of the notification target.' },
    enabled: { type: 'boolean', default: true, filter: true, description: 'Whether to trigger alerts when heartbeat is expired (a disabled heartbeat never expires).' },
    status: { type: 'string', enum: HEARTBEAT_STATUSES, writable: false, default: 'waiting', filter: true, description: 'waiting until the first ping, active while pings arrive in time, expired when one did not' },
    owner_group_ids: { type: 'array', nullable: true, items: { type: 'string' }, default: [], alwaysStored: true, description: 'List of team IDs that own this heartbeat (null clears to [])' },
    ping_url: output('URL to receive heartbeat pings (POST or GET, with the secret as bearer token).'),
    secret: output('Secret used as bearer token when pinging heartbeat.'),
    email_address: { type: 'string', writable: false, description: 'Email address to receive heartbeat pings (a mail relay posts its mail to /v1/heartbeat_emails).' },
    last_pinged_at: { type: 'date-time', nullable: true, writable: false, description: 'When the heartbeat was last pinged.' },
    expires_at: { type: 'date-time', nullable: true, writable: false, description: 'When heartbeat expires (null while waiting for its first ping)' },
  },
});

/** Where pings arrive: the API's public base URL (`PUBLIC_URL`) and the mail domain of `email_address` (its host), set when the alerting module starts. */
export const heartbeatEndpoints = { base: 'http://127.0.0.1:3000', emailDomain: '127.0.0.1' };
export const pingPath = (id: string) => `/v1/heartbeats/${id}/ping_heartbeat`;

const tooLong = (interval: unknown, unit: unknown) => typeof interval === 'number' && typeof unit === 'string' && intervalMs(interval, unit as HeartbeatIntervalUnit) > MAX_INTERVAL_MS;

/**
 * The checks of a heartbeat as a write leaves it (`merged`), for what `changes` sends: the interval
 * (a year at most), the urgency and the notification target (records of the organization), the
 * owning teams; 422 naming the attribute. Answers the changes with the owners normalised.
 */
async function checked(ctx: WriteContext, merged: Row, changes: Row): Promise<Row> {
  if (tooLong(merged.interval, merged.interval_unit)) {
    throw JsonApiError.invalidAttributes([{ attribute: 'interval', detail: `interval: ${String(merged.interval)} ${String(merged.interval_unit)} is longer than a year`, code: AlertingErrorCode.InvalidValue }]);
  }
  await checkUrgency(ctx, changes);
  const attributes: Row = { ...changes };
  // Only a target the write sends is checked: the monitor's and pings' writes must not fail on one deleted since.
  if ('notification_target_type' in changes || 'notification_target_id' in changes) {
    const target = { notification_target_type: merged.notification_target_type, notification_target_id: merged.notification_target_id };
    attributes.notification_target_id = (await requireAlertReferences(ctx, target)).notification_target_id;
  }
  if (!('owner_group_ids' in changes)) return attributes;
  const owners = ((changes.owner_group_ids as string[] | null) ?? []).map((id) => String(id).toLowerCase());
  const unknown = await unknownTeams(ctx, 'owner_group_ids', owners);
  if (unknown.length) throw JsonApiError.invalidAttributes(unknown);
  return { ...attributes, owner_group_ids: [...new Set(owners)] };
}

/**
 * The deadline after an update (docs/heartbeats.md): an active heartbeat whose interval changes
 * expires `interval` after its last ping; one enabled again gets a whole interval from now (pings
 * missed while it was disabled never page). Otherwise unchanged.
 */
export function deadlineAfterUpdate(current: Row, merged: Row, now: Date): Date | undefined {
  if (current.status !== 'active' || !merged.enabled) return undefined;
  const unit = merged.interval_unit as HeartbeatIntervalUnit;
  if (!current.enabled) return deadlineAfter(now, merged.interval as number, unit);
  if (merged.interval !== current.interval || unit !== current.interval_unit) return deadlineAfter(current.last_pinged_at as Date, merged.interval as number, unit);
  return undefined;
}

export const heartbeatDefinition: ResourceDefinition = {
  schema: heartbeatSchema,
  context: 'alerting',
  table: 'heartbeats',
  teamOwnership: { column: 'owner_group_ids' },
  rules: {
    async beforeCreate(input, ctx) {
      const attributes = await checked(ctx, input, input);
      const id = randomUUID();
      const secret = randomBytes(32).toString('hex');
      // The address's local part is unguessable: knowing the address is what lets mail ping.
      const email_address = `heartbeat-${randomBytes(12).toString('hex')}@${heartbeatEndpoints.emailDomain}`;
      return { ...attributes, id, secret, email_address, ping_url: `${heartbeatEndpoints.base}${pingPath(id)}`, status: 'waiting', last_pinged_at: null, expires_at: null };
    },
    async beforeUpdate(current, input, ctx) {
      const merged = { ...current, ...input };
      const changes = await checked(ctx, merged, input);
      const expires = deadlineAfterUpdate(current, merged, ctx.now);
      return expires ? { ...changes, expires_at: expires } : changes;
    },
  },
};
