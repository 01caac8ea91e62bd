import type { AttributeDef, ParentDef } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';

/** Records under a schedule: created and listed at `/v1/schedules/{schedule_id}/<segment>`. */
export const underSchedule = (segment: string): ParentDef => ({ path: '/v1/schedules', param: 'schedule_id', attribute: 'schedule_id', table: 'schedules', segment, onParentDelete: 'cascade' });

/** The schedule a record lives under; the path decides, a different one in the body is a 422. */
export const SCHEDULE_ID: AttributeDef = { type: 'string', format: 'uuid', writable: 'create', filter: ['eq', 'in'], description: 'The ID of the parent schedule' };

/** Records under a rotation: created and listed at `/v1/schedule_rotations/{schedule_rotation_id}/<segment>`. */
export const underRotation = (segment: string): ParentDef => ({ path: '/v1/schedule_rotations', param: 'schedule_rotation_id', attribute: 'schedule_rotation_id', table: 'schedule_rotations', segment, onParentDelete: 'cascade' });

export const SCHEDULE_ROTATION_ID: AttributeDef = { type: 'string', format: 'uuid', writable: 'create', description: 'The ID of the parent rotation' };

/** The reference's `active_time_attributes`: windows of a day, `HH:MM` to `HH:MM`. */
export const activeTimes = (description: string, required: boolean): AttributeDef => ({
  type: 'array',
  description,
  items: {
    type: 'object',
    properties: {
      start_time: { type: 'string', required, description: 'Start time of the window (HH:MM)' },
      end_time: { type: 'string', required, description: 'End time of the window (HH:MM)' },
    },
  },
});

/** Records that are part of a schedule (rotations, their members and days, shadows): read with it, every write changes it. */
export const PART_OF_SCHEDULE: ResourceDefinition['permission'] = { family: 'schedules', writes: 'update' };
