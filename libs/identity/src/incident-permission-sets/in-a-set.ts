import type { ParentDef, ResourceSchema } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';

/** The parent of a set's booleans and resources: created and listed under the set, deleted with it. */
const IN_A_SET: ParentDef = {
  path: '/v1/incident_permission_sets',
  param: 'incident_permission_set_id',
  attribute: 'incident_permission_set_id',
  table: 'incident_permission_sets',
  onParentDelete: 'cascade',
};

/** Permission sets are role administration: every route of a set and of its records checks the `roles` family. */
export const ROLE_ADMINISTRATION: ResourceDefinition['permission'] = { family: 'roles' };

/**
 * What a set's booleans and resources declare alike: their own path for their records, the
 * collection under the set (`/v1/incident_permission_sets/{incident_permission_set_id}/<segment>`),
 * oldest first.
 */
export const recordsOfASet = <T extends string>(type: T, singular: string, segment: string) =>
  ({
    type,
    singular,
    path: `/v1/${type}`,
    readTable: `${type}_read`,
    defaultSort: 'created_at',
    operations: ['list', 'create', 'get', 'update', 'delete'],
    parent: { ...IN_A_SET, segment },
  }) satisfies Partial<ResourceSchema>;
