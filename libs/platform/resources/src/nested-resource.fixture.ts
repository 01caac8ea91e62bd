import { defineResource, type ParentDef, type ResourceSchema } from '@taproot/json-api';

/** Shared by the specs of the nested (parent) resource path: one role of ORG with its task. */
export const ORG = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
export const ROLE = '3f6c1a52-9d1e-4b7a-8c2f-0a1b2c3d4e5f';
export const TASK = '5b4a3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d';

export const ROLE_PARENT: ParentDef = { path: '/v1/incident_roles', param: 'incident_role_id', attribute: 'incident_role_id', table: 'incident_roles' };

/** Incident role tasks as the specs need them: under their role, `extra` on top. */
export const roleTasks = (extra: Partial<ResourceSchema> = {}) =>
  defineResource({
    type: 'incident_role_tasks',
    singular: 'incident_role_task',
    path: '/v1/incident_role_tasks',
    readTable: 'incident_role_tasks_read',
    defaultSort: 'created_at',
    operations: ['list', 'create', 'get', 'update', 'delete'],
    parent: ROLE_PARENT,
    attributes: { incident_role_id: { type: 'string', format: 'uuid', writable: 'create' }, task: { type: 'string', required: true }, external_id: { type: 'string' }, managed_by: { type: 'string' } },
    ...extra,
  });
