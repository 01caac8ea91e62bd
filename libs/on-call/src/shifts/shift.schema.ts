import { defineResource, type FilterOperator } from '@taproot/json-api';

const RANGE: FilterOperator[] = ['gt', 'gte', 'lt', 'lte'];

/**
 * A shift (reference: `shift`), computed from a schedule's rotations, overrides and shadows
 * (docs/schedules.md), never stored: `GET /v1/shifts` and `GET /v1/schedules/{id}/shifts`
 * answer it. Declared for its document shapes, its `include` values and the page parameters.
 */
export const shiftSchema = defineResource({
  type: 'shifts',
  singular: 'shift',
  path: '/v1/shifts',
  readTable: 'schedule_rotation_versions',
  defaultSort: 'starts_at',
  operations: [],
  attributes: {
    schedule_id: { type: 'string', required: true, writable: false, description: 'ID of schedule' },
    rotation_id: { type: 'string', nullable: true, writable: false, description: 'ID of rotation: null for an override' },
    // Range filters (filter[starts_at][gte], ...) narrow the computed shifts, and bound the window when from/to are absent.
    starts_at: { type: 'date-time', writable: false, sortable: true, filter: RANGE, description: 'Start datetime of shift' },
    ends_at: { type: 'date-time', writable: false, filter: RANGE, description: 'End datetime of shift' },
    is_override: { type: 'boolean', writable: false, description: 'Denotes shift is an override shift' },
    is_shadow: { type: 'boolean', writable: false, description: 'Denotes shift is a shadow shift' },
    // Deprecated by the spec in favour of the assignee include; still answered.
    user_id: { type: 'integer', nullable: true, writable: false, description: 'ID of user on shift' },
  },
  // The reference's include enum, and what the hosted API's own MCP server also includes: the
  // user's on-call role, the rotation and the schedule.
  relationships: {
    user: { type: 'users', many: false, idAttribute: 'user_id' },
    assignee: { type: 'users', many: false, idAttribute: 'user_id' },
    shift_override: { type: 'shift_overrides', many: false },
    shift_shadow: { type: 'on_call_shadows', many: false },
    on_call_role: { type: 'on_call_roles', many: false },
    schedule_rotation: { type: 'schedule_rotations', many: false, idAttribute: 'rotation_id' },
    schedule: { type: 'schedules', many: false, idAttribute: 'schedule_id' },
  },
});
