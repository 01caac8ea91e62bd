import { DomainError, defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { ComponentsErrorCode } from './errors';
import { POSITION, STATUS_PAGE_CHILD_PERMISSION, STATUS_PAGE_ID, UNDER_STATUS_PAGE } from '../status-pages/under-status-page';

/**
 * A group of a status page's components (the hosted API's `status_page_component_group`):
 * created and listed under the page, read, changed and deleted at `/v1/component-groups/{id}`.
 */
export const statusPageComponentGroupSchema = defineResource({
  type: 'status_page_component_groups',
  singular: 'status_page_component_group',
  path: '/v1/component-groups',
  readTable: 'status_page_component_groups_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: { ...UNDER_STATUS_PAGE, segment: 'component-groups' },
  attributes: {
    status_page_id: { ...STATUS_PAGE_ID, filter: ['eq', 'in'] },
    name: { type: 'string', required: true, minLength: 1, maxLength: 255, filter: true, sortable: true, description: 'Name of the component group' },
    description: { type: 'string', nullable: true, maxLength: 10000, description: 'Description of the component group' },
    position: { ...POSITION, description: "Position of the group among the page's groups; left out, last" },
    collapsed_by_default: { type: 'boolean', default: false, alwaysStored: true, description: 'Whether the group renders collapsed on the public page' },
  },
});

export const statusPageComponentGroupDefinition: ResourceDefinition = {
  schema: statusPageComponentGroupSchema,
  context: 'status-pages',
  table: 'status_page_component_groups',
  permission: STATUS_PAGE_CHILD_PERMISSION,
  rules: {
    // A group goes only when empty: deleting it must not silently regroup the page's components.
    async beforeDelete(current, ctx) {
      const [{ count }] = (await ctx.manager.query(
        'SELECT count(*)::int AS count FROM status_page_components WHERE organization_id = $1 AND status_page_component_group_id = $2',
        [ctx.organizationId, current.id],
      )) as { count: number }[];
      if (count > 0) {
        throw new DomainError(ComponentsErrorCode.ComponentGroupInUse, `component group ${String(current.id)} still holds ${count} component(s): move or delete them first`);
      }
    },
  },
};
