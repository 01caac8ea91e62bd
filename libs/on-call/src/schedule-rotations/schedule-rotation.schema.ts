import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition, Row } from '@taproot/resources';
import { scheduleRotationActiveDayDefinition } from '../schedule-rotation-active-days/schedule-rotation-active-day.schema';
import { scheduleRotationUserDefinition } from '../schedule-rotation-users/schedule-rotation-user.schema';
import { activeTimes, SCHEDULE_ID, underSchedule, PART_OF_SCHEDULE } from '../shared/schedule-parent';
import { orderIssues, refuse, timeZoneIssues, windowIssues } from '../shared/times';
import { DAY_NAMES, ROTATION_TYPES, rotationableIssues, type RotationType } from './rotationable';

/**
 * A rotation of a schedule (reference: `schedule_rotation`): its type and the type's handoff
 * (`schedule_rotationable_attributes`), its time zone, bounds and active times. Created and listed
 * under the schedule, read and changed at `/v1/schedule_rotations/{id}`; its members and per-day
 * active windows live under it.
 */
export const scheduleRotationSchema = defineResource({
  type: 'schedule_rotations',
  singular: 'schedule_rotation',
  path: '/v1/schedule_rotations',
  readTable: 'schedule_rotations_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: underSchedule('schedule_rotations'),
  // The hosted API's Terraform provider reads every rotation with this include. Taproot's members
  // are the schedule_rotation_members attribute, not records: accepted, includes nothing.
  relationships: { schedule_rotation_members: { type: 'schedule_rotation_members', many: true, absent: true } },
  attributes: {
    schedule_id: SCHEDULE_ID,
    name: { type: 'string', required: true, minLength: 1, maxLength: 255, filter: true, sortable: true, description: 'The name of the schedule rotation' },
    position: { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, sortable: true, description: 'Position of the rotation in its schedule; omitted, last' },
    schedule_rotationable_type: { type: 'string', enum: ROTATION_TYPES, required: true, filter: ['eq', 'in'], description: 'Schedule rotation type' },
    schedule_rotationable_attributes: {
      type: 'object',
      required: true,
      description: "The rotation type's handoff: handoff_time (daily); handoff_time and handoff_day (weekly, biweekly: S M T W R F U; monthly: first_day_of_month, last_day_of_month); handoff_time, shift_length and shift_length_unit (custom)",
      // The provider sends every member, those of other rotation types null.
      properties: {
        handoff_time: { type: 'string', nullAsUnset: true, description: 'Hand off time (HH:MM)' },
        handoff_day: { type: 'string', nullAsUnset: true, description: 'Hand off day' },
        shift_length: { type: 'integer', nullAsUnset: true, description: 'Shift length of a custom rotation' },
        shift_length_unit: { type: 'string', enum: ['hours', 'days', 'weeks'], nullAsUnset: true, description: 'Shift length unit of a custom rotation' },
      },
    },
    time_zone: { type: 'string', default: 'Etc/UTC', description: 'A valid IANA time zone name (a Rails name is taken too, answered as sent)' },
    start_time: { type: 'date-time', nullable: true, description: 'When the rotation starts: shifts are only created after it' },
    end_time: { type: 'date-time', nullable: true, description: 'When the rotation ends: shifts are only created before it' },
    active_all_week: { type: 'boolean', default: true, description: 'Schedule rotation active all week?' },
    active_days: { type: 'array', items: { type: 'string', enum: DAY_NAMES }, default: [...DAY_NAMES], description: 'Schedule rotation active days' },
    active_time_type: { type: 'string', enum: ['all_day', 'same_time', 'custom'], default: 'all_day', description: 'Schedule rotation active time type' },
    active_time_attributes: { ...activeTimes("Schedule rotation's active times", true), default: [] },
    // Nested schedules (the reference: a feature of some accounts): stored and answered as sent.
    schedule_rotation_members: {
      type: 'array',
      nullable: true,
      description: 'Members of a nested rotation, stored as sent',
      items: {
        type: 'object',
        properties: {
          member_id: { type: 'string', required: true, description: 'ID of the member' },
          member_type: { type: 'string', enum: ['User', 'Schedule'], required: true, description: 'Type of member' },
          position: { type: 'integer', description: 'Position of the member in rotation' },
        },
      },
    },
  },
});

/** The rotation as it will be stored (`changes` over `current`) is checked: type and handoff together, zone, bounds, windows. */
function checked(changes: Row, current: Row | null): Row {
  const type = (changes.schedule_rotationable_type ?? current?.schedule_rotationable_type) as RotationType;
  const handoff = (changes.schedule_rotationable_attributes ?? current?.schedule_rotationable_attributes ?? {}) as Row;
  const retyped = 'schedule_rotationable_type' in changes || 'schedule_rotationable_attributes' in changes;
  refuse([
    ...(retyped ? rotationableIssues(type, handoff) : []),
    ...timeZoneIssues(changes, ['time_zone']),
    ...orderIssues(changes, current, 'start_time', 'end_time'),
    ...windowIssues(changes, 'active_time_attributes', true),
  ]);
  return changes;
}

export const scheduleRotationDefinition: ResourceDefinition = {
  schema: scheduleRotationSchema,
  context: 'on-call',
  table: 'schedule_rotations',
  permission: PART_OF_SCHEDULE,
  children: () => [scheduleRotationUserDefinition, scheduleRotationActiveDayDefinition],
  rules: {
    beforeCreate: (attributes) => checked(attributes, null),
    beforeUpdate: (current, changes) => checked(changes, current),
  },
};
