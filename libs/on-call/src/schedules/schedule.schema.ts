import { assertCanOwnSchedule } from '@taproot/identity';
import { byQuery, defineIncludes, defineResource, type AttributeDef } from '@taproot/json-api';
import { checkReferenced, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { onCallShadowDefinition } from '../on-call-shadows/on-call-shadow.schema';
import { overrideShiftDefinition } from '../override-shifts/override-shift.schema';
import { scheduleRotationDefinition, scheduleRotationSchema } from '../schedule-rotations/schedule-rotation.schema';
import { shiftCoverageRequestDefinition } from '../shift-coverage-requests/shift-coverage-request.schema';
import { TEAMS, USERS } from '../shared/references';
import { refuse, timeOfDayIssue, timeZoneIssues } from '../shared/times';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

const slackRef = (what: string): AttributeDef => ({
  type: 'object',
  nullable: true,
  description: `Synced Slack ${what} of the schedule`,
  properties: { id: { type: 'string', description: `Slack ${what} ID` }, name: { type: 'string', description: `Slack ${what} name` } },
});

/** Settings the reference accepts as null but always answers with a value: null stores this default. */
const NULL_IS_DEFAULT: Record<string, unknown> = {
  include_shadows_in_slack_notifications: false,
  shift_report_enabled: false,
  shift_start_notifications_enabled: false,
  shift_update_notifications_enabled: false,
  sync_linear_enabled: false,
  shift_report_day_of_week: 'monday',
  shift_report_time_of_day: '09:00',
  shift_report_time_zone: 'Etc/UTC',
};

/** The reference: these need `slack_channel`; without one they are forced to false on save. */
const NEEDS_SLACK_CHANNEL = ['include_shadows_in_slack_notifications', 'shift_report_enabled', 'shift_start_notifications_enabled', 'shift_update_notifications_enabled'];

const setting = (description: string): AttributeDef => ({ type: 'boolean', nullable: true, default: false, description });

/**
 * An on-call schedule (reference: `schedule`): who owns it, its Slack wiring and weekly report.
 * Its rotations, overrides and shadows live under it (docs/schedule-resources.md).
 */
export const scheduleSchema = defineResource({
  type: 'schedules',
  singular: 'schedule',
  path: '/v1/schedules',
  readTable: 'schedules_read',
  defaultSort: 'created_at',
  cursor: true,
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // Always linked, as the hosted API answers it: its MCP server finds a schedule's rotations there.
  relationships: { schedule_rotations: { type: 'schedule_rotations', many: true, linked: true } },
  attributes: {
    name: { type: 'string', required: true, minLength: 1, maxLength: 255, filter: ['eq', 'not_eq', 'in', 'not_in'], sortable: true, searchable: true, description: 'The name of the schedule' },
    description: { type: 'string', nullable: true, searchable: true, description: 'The description of the schedule' },
    all_time_coverage: { type: 'boolean', nullable: true, description: '24/7 coverage of the schedule' },
    // Required by the reference; left out (or null on update), the caller's own user (a key without one: 422).
    owner_user_id: { type: 'integer', nullable: true, alwaysStored: true, filter: ['eq', 'in'], description: 'ID of the user who owns the schedule; omitted, the calling user' },
    owner_group_ids: { type: 'array', items: { type: 'string' }, default: [], description: 'Owning teams' },
    slack_channel: slackRef('channel'),
    slack_user_group: slackRef('user group'),
    include_shadows_in_slack_notifications: setting('Whether shadow users are included in Slack notifications and user group syncing (needs slack_channel)'),
    shift_report_enabled: setting('Whether the weekly shift summary report is enabled (needs slack_channel)'),
    shift_start_notifications_enabled: setting('Whether shift-start notifications are enabled (needs slack_channel)'),
    shift_update_notifications_enabled: setting('Whether shift-update notifications are enabled (needs slack_channel)'),
    sync_linear_enabled: setting('Whether the schedule is synced with Linear'),
    shift_report_day_of_week: { type: 'string', enum: WEEKDAYS, nullable: true, default: 'monday', description: 'Day of week the weekly shift summary is sent' },
    shift_report_time_of_day: { type: 'string', nullable: true, default: '09:00', description: 'Time of day the weekly shift summary is sent, in HH:MM 24-hour format' },
    shift_report_time_zone: { type: 'string', nullable: true, default: 'Etc/UTC', description: 'IANA time zone used for the weekly shift summary (a Rails name is taken too, answered as sent)' },
  },
});

/** The owner: the named user of the organization, or the caller's own user (spec: a key without one cannot own a schedule). */
function owned(changes: Row, ctx: WriteContext): Row {
  if (changes.owner_user_id != null) return changes;
  const userId = ctx.userId == null ? null : Number(ctx.userId);
  assertCanOwnSchedule({ userId });
  return { ...changes, owner_user_id: userId };
}

/** Settings as stored: nulls become their defaults, Slack-only ones false without a channel; times checked. */
function settled(changes: Row, current: Row | null): Row {
  const settled = { ...changes };
  for (const [name, fallback] of Object.entries(NULL_IS_DEFAULT)) if (name in settled && settled[name] === null) settled[name] = fallback;
  const channel = 'slack_channel' in settled ? settled.slack_channel : current?.slack_channel;
  if (channel == null) for (const name of NEEDS_SLACK_CHANNEL) settled[name] = false;
  const time = 'shift_report_time_of_day' in settled ? timeOfDayIssue('shift_report_time_of_day', settled.shift_report_time_of_day) : null;
  refuse([...(time ? [time] : []), ...timeZoneIssues(settled, ['shift_report_time_zone'])]);
  return settled;
}

const OWNERS = { owner_user_id: USERS, owner_group_ids: TEAMS };

export const scheduleDefinition: ResourceDefinition = {
  schema: scheduleSchema,
  context: 'on-call',
  table: 'schedules',
  // Teams own schedules through owner_group_ids: their team keys edit them (spec, API keys).
  teamOwnership: { column: 'owner_group_ids' },
  // Deleting a schedule deletes what lives under it, each record with its own event.
  children: () => [scheduleRotationDefinition, overrideShiftDefinition, onCallShadowDefinition, shiftCoverageRequestDefinition],
  includes: defineIncludes(scheduleSchema, {
    schedule_rotations: byQuery(
      scheduleRotationSchema,
      `SELECT r.schedule_id AS owner_id, r.* FROM schedule_rotations_read r
        WHERE r.organization_id = $1 AND r.schedule_id = ANY($2::uuid[]) ORDER BY r.position, r.created_at, r.id`,
    ),
  }),
  rules: {
    beforeCreate: (attributes, ctx) => checkReferenced(ctx, settled(owned(attributes, ctx), null), OWNERS),
    beforeUpdate: (current, changes, ctx) => {
      // update_schedule's owner_user_id is nullable; a schedule always has an owner, so null keeps the stored one.
      const { owner_user_id: owner, ...rest } = changes;
      return checkReferenced(ctx, settled(owner == null ? rest : { ...rest, owner_user_id: owner }, current), OWNERS);
    },
  },
};
