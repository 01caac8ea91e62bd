import { randomUUID } from 'node:crypto';
import { defineResource } from '@taproot/json-api';
import { checkReferenced, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { USERS, userDocument } from '../shared/references';
import { SCHEDULE_ID, underSchedule } from '../shared/schedule-parent';
import { orderIssues, refuse } from '../shared/times';

/**
 * An override of a schedule (reference: `override_shift`, of JSON:API type `shifts`): `user_id`
 * is on call from `starts_at` to `ends_at` instead of whoever the rotations put there. The
 * reference's update changes the user only. `user` (a `user_response`) and `shift_override` are
 * kept with the record when it is written.
 */
export const overrideShiftSchema = defineResource({
  type: 'shifts',
  singular: 'override_shift',
  plural: 'override_shifts',
  path: '/v1/override_shifts',
  readTable: 'override_shifts_read',
  defaultSort: 'starts_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: underSchedule('override_shifts'),
  attributes: {
    schedule_id: SCHEDULE_ID,
    rotation_id: { type: 'string', nullable: true, writable: false, description: 'ID of rotation: null, an override belongs to no rotation' },
    starts_at: { type: 'date-time', required: true, writable: 'create', filter: ['gt', 'gte', 'lt', 'lte'], sortable: true, description: 'Start of the override' },
    ends_at: { type: 'date-time', required: true, writable: 'create', filter: ['gt', 'gte', 'lt', 'lte'], sortable: true, description: 'End of the override (after starts_at)' },
    is_override: { type: 'boolean', writable: false, default: true, description: 'Denotes shift is an override shift' },
    user_id: { type: 'integer', required: true, filter: ['eq', 'in'], description: 'The user on call during the override' },
    user: { type: 'object', writable: false, description: 'The user on call, as a user_response document' },
    shift_override: { type: 'object', nullable: true, writable: false, description: 'Override metadata (shift_override_response): who created it; null for a key without a user' },
  },
});

/** The user must be of the organization; the answer shows them as `/v1/users/{id}` does. */
async function withUser(ctx: WriteContext, changes: Row): Promise<Row> {
  const checked = await checkReferenced(ctx, changes, { user_id: USERS });
  return checked.user_id == null ? checked : { ...checked, user: await userDocument(ctx, checked.user_id as number) };
}

/** The reference's `shift_override_response`: the override named by its id, and the user who created it. */
function metadata(id: string, ctx: WriteContext): Row | null {
  if (ctx.userId == null) return null;
  const at = ctx.now.toISOString();
  return { data: { id, type: 'shift_override', attributes: { shift_id: id, created_by_user_id: Number(ctx.userId), created_at: at, updated_at: at } } };
}

export const overrideShiftDefinition: ResourceDefinition = {
  schema: overrideShiftSchema,
  context: 'on-call',
  table: 'override_shifts',
  // The on-call roles' schedule_override_permissions (create, update) govern overrides; withdrawing
  // one is an update of the schedule's overrides. Reading them is reading the schedule.
  permission: { family: 'schedule_override', writes: { delete: 'update' }, reads: { family: 'schedules', action: 'read' } },
  rules: {
    beforeCreate: async (attributes, ctx) => {
      refuse(orderIssues(attributes, null, 'starts_at', 'ends_at'));
      const id = randomUUID();
      return { ...(await withUser(ctx, attributes)), id, shift_override: metadata(id, ctx) };
    },
    beforeUpdate: (_current, changes, ctx) => withUser(ctx, changes),
  },
};
