import { defineResource } from '@taproot/json-api';
import { checkReferenced, type Reference, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { SCHEDULES, USERS } from '../shared/references';
import { SCHEDULE_ID, underSchedule, PART_OF_SCHEDULE } from '../shared/schedule-parent';
import { orderIssues, refuse } from '../shared/times';

export const SHADOWABLE_TYPES = ['User', 'Schedule'] as const;

/**
 * A shadow shift of a schedule (reference: `on_call_shadow`): `shadow_user_id` shadows a user or
 * a schedule (`shadowable_type`, `shadowable_id`) from `starts_at` to `ends_at`. The reference's
 * update names `schedule_id`; a shadow stays under its schedule, so it is ignored there.
 */
export const onCallShadowSchema = defineResource({
  type: 'on_call_shadows',
  singular: 'on_call_shadow',
  path: '/v1/on_call_shadows',
  readTable: 'on_call_shadows_read',
  defaultSort: 'starts_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: underSchedule('on_call_shadows'),
  attributes: {
    schedule_id: SCHEDULE_ID,
    shadowable_type: { type: 'string', enum: SHADOWABLE_TYPES, required: true, filter: ['eq'], description: 'Whether a user or a schedule is shadowed' },
    shadowable_id: { type: 'string', required: true, filter: ['eq'], description: 'ID of the schedule or user shadowed' },
    shadow_user_id: { type: 'integer', required: true, filter: ['eq', 'in'], description: 'The user the shadow shift belongs to' },
    starts_at: { type: 'date-time', required: true, filter: ['gt', 'gte', 'lt', 'lte'], sortable: true, description: 'Start of the shadow shift' },
    ends_at: { type: 'date-time', required: true, filter: ['gt', 'gte', 'lt', 'lte'], sortable: true, description: 'End of the shadow shift (after starts_at)' },
  },
});

const SHADOWED: Record<(typeof SHADOWABLE_TYPES)[number], Reference> = { User: USERS, Schedule: SCHEDULES };

/** The shadow as it will be stored: its users and shadowed record of the organization, its end after its start. */
async function checked(changes: Row, current: Row | null, ctx: WriteContext): Promise<Row> {
  refuse(orderIssues(changes, current, 'starts_at', 'ends_at'));
  const type = (changes.shadowable_type ?? current?.shadowable_type) as keyof typeof SHADOWED;
  const references: Record<string, Reference> = { shadow_user_id: USERS };
  if ('shadowable_type' in changes || 'shadowable_id' in changes) references.shadowable_id = SHADOWED[type];
  const named = { ...changes, shadowable_id: changes.shadowable_id ?? current?.shadowable_id };
  const result = await checkReferenced(ctx, named, references);
  if (!('shadowable_id' in changes)) delete result.shadowable_id;
  return result;
}

export const onCallShadowDefinition: ResourceDefinition = {
  schema: onCallShadowSchema,
  context: 'on-call',
  table: 'on_call_shadows',
  permission: PART_OF_SCHEDULE,
  rules: {
    beforeCreate: (attributes, ctx) => checked(attributes, null, ctx),
    beforeUpdate: (current, changes, ctx) => checked(changes, current, ctx),
  },
};
