import { defineResource } from '@taproot/json-api';

/** Users (`/v1/users`), the reference's `user`; read from `users_view`. Ids are integers. */
export const userSchema = defineResource({
  type: 'users',
  singular: 'user',
  path: '/v1/users',
  readTable: 'users_view',
  defaultSort: 'created_at',
  operations: ['list', 'get', 'update', 'delete'],
  // The reference's include enum (listUsers, getUser); identity/includes.ts serves them.
  relationships: {
    role: { type: 'roles', many: false },
    on_call_role: { type: 'on_call_roles', many: false },
    teams: { type: 'groups', many: true },
    email_addresses: { type: 'user_email_addresses', many: true, absent: true },
    phone_numbers: { type: 'user_phone_numbers', many: true, absent: true },
    devices: { type: 'user_devices', many: true, absent: true },
    schedules: { type: 'schedules', many: true, absent: true },
    notification_rules: { type: 'user_notification_rules', many: true, absent: true },
  },
  attributes: {
    email: { type: 'string', writable: false, filter: true, searchable: true, description: 'The email of the user' },
    first_name: { type: 'string', nullable: true, searchable: true, maxLength: 255, description: 'First name of the user' },
    last_name: { type: 'string', nullable: true, searchable: true, maxLength: 255, description: 'Last name of the user' },
    full_name: { type: 'string', nullable: true, writable: false, description: 'The full name of the user' },
    full_name_with_team: { type: 'string', nullable: true, writable: false, description: 'The full name with team of the user' },
    time_zone: { type: 'string', nullable: true, writable: false, description: 'Configured time zone' },
  },
});

/** The reference's `update_user`: names and role assignment. */
export const updateUserSchema = defineResource({
  ...userSchema,
  attributes: {
    first_name: userSchema.attributes.first_name,
    last_name: userSchema.attributes.last_name,
    role_id: { type: 'string', nullable: true, description: 'ID of the role to assign' },
    on_call_role_id: { type: 'string', nullable: true, description: 'ID of the on-call role to assign' },
  },
});
