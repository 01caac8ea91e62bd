import { userRecords } from '@taproot/identity';
import { byIdAttribute, defineIncludes, defineResource } from '@taproot/json-api';
import { checkReferenced, type ResourceDefinition } from '@taproot/resources';
import { USERS } from '../shared/references';
import { SCHEDULE_ROTATION_ID, underRotation, PART_OF_SCHEDULE } from '../shared/schedule-parent';

/**
 * A member of a rotation (reference: `schedule_rotation_user`), in turn order: `position` ascending,
 * a new member last unless it says where. The same user may be a member more than once (two turns).
 */
export const scheduleRotationUserSchema = defineResource({
  type: 'schedule_rotation_users',
  singular: 'schedule_rotation_user',
  path: '/v1/schedule_rotation_users',
  readTable: 'schedule_rotation_users_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: underRotation('schedule_rotation_users'),
  // Always linked, as the hosted API answers it: its MCP server reads a member's user there.
  relationships: { user: { type: 'users', many: false, idAttribute: 'user_id', linked: true } },
  attributes: {
    schedule_rotation_id: SCHEDULE_ROTATION_ID,
    user_id: { type: 'integer', required: true, filter: ['eq', 'in'], description: 'The user taking turns in the rotation' },
    position: { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, sortable: true, description: 'Position of the user inside the rotation; omitted, last' },
  },
});

const MEMBER = { user_id: USERS };

export const scheduleRotationUserDefinition: ResourceDefinition = {
  schema: scheduleRotationUserSchema,
  context: 'on-call',
  table: 'schedule_rotation_users',
  permission: PART_OF_SCHEDULE,
  includes: defineIncludes(scheduleRotationUserSchema, { user: byIdAttribute('user_id', userRecords) }),
  rules: {
    beforeCreate: (attributes, ctx) => checkReferenced(ctx, attributes, MEMBER),
    beforeUpdate: (_current, changes, ctx) => checkReferenced(ctx, changes, MEMBER),
  },
};
