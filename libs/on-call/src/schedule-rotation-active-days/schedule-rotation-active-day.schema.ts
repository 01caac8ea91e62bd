import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition, Row } from '@taproot/resources';
import { DAY_NAMES } from '../schedule-rotations/rotationable';
import { activeTimes, SCHEDULE_ROTATION_ID, underRotation, PART_OF_SCHEDULE } from '../shared/schedule-parent';
import { refuse, windowIssues } from '../shared/times';

/**
 * The active windows of one day of a rotation (reference: `schedule_rotation_active_day`), for
 * rotations whose `active_time_type` is `custom`. Listed in creation order.
 */
export const scheduleRotationActiveDaySchema = defineResource({
  type: 'schedule_rotation_active_days',
  singular: 'schedule_rotation_active_day',
  path: '/v1/schedule_rotation_active_days',
  readTable: 'schedule_rotation_active_days_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: underRotation('schedule_rotation_active_days'),
  attributes: {
    schedule_rotation_id: SCHEDULE_ROTATION_ID,
    day_name: { type: 'string', enum: DAY_NAMES, required: true, filter: ['eq', 'in'], description: 'The day (S M T W R F U) these active times are for' },
    active_time_attributes: { ...activeTimes('Schedule rotation active times of the day', false), required: true },
  },
});

const checked = (changes: Row): Row => {
  refuse(windowIssues(changes, 'active_time_attributes', false));
  return changes;
};

export const scheduleRotationActiveDayDefinition: ResourceDefinition = {
  schema: scheduleRotationActiveDaySchema,
  context: 'on-call',
  table: 'schedule_rotation_active_days',
  permission: PART_OF_SCHEDULE,
  rules: { beforeCreate: checked, beforeUpdate: (_current, changes) => checked(changes) },
};
