import { existingCatalogIds } from '@taproot/catalog';
import { defineResource, JsonApiError } from '@taproot/json-api';
import { checkReferenced, type Reference, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { ComponentsErrorCode } from './errors';
import { POSITION, STATUS_PAGE_CHILD_PERMISSION, STATUS_PAGE_ID, UNDER_STATUS_PAGE } from '../status-pages/under-status-page';

const catalogReference = (noun: string, type: 'services' | 'functionalities'): Reference => ({
  noun,
  code: ComponentsErrorCode.UnknownCatalogRecord,
  existing: (db, organizationId, ids) => existingCatalogIds(db, organizationId, type, ids),
});
const REFERENCES = { service_ids: catalogReference('service', 'services'), functionality_ids: catalogReference('functionality', 'functionalities') };

/**
 * A component of a status page (the hosted API's `status_page_component`): what the public page
 * shows a status for, optionally in a group of the same page and linked to the organization's
 * services and functionalities. Created and listed under the page, read, changed and deleted at
 * `/v1/components/{id}` (docs/status-pages.md, "Components").
 */
export const statusPageComponentSchema = defineResource({
  type: 'status_page_components',
  singular: 'status_page_component',
  path: '/v1/components',
  readTable: 'status_page_components_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: UNDER_STATUS_PAGE,
  attributes: {
    status_page_id: { ...STATUS_PAGE_ID, filter: ['eq', 'in'] },
    name: { type: 'string', required: true, minLength: 1, maxLength: 255, filter: true, sortable: true, description: 'Name of the component' },
    description: { type: 'string', nullable: true, maxLength: 10000, description: 'Description of the component' },
    status: {
      type: 'string',
      default: 'operational',
      alwaysStored: true,
      filter: ['eq', 'not_eq', 'in', 'not_in'],
      description: 'The slug of one of the organization’s enabled statuses (/v1/statuses); left out, operational',
    },
    position: { ...POSITION, description: "Position of the component among its page's components; left out, last" },
    status_page_component_group_id: {
      type: 'string',
      format: 'uuid',
      nullable: true,
      filter: ['eq', 'in', 'null', 'not_null'],
      description: 'ID of a component group of the same status page; null: not in a group',
    },
    service_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, default: [], alwaysStored: true, description: 'Services of the organization the component stands for' },
    functionality_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, default: [], alwaysStored: true, description: 'Functionalities of the organization the component stands for' },
  },
});

/** The statuses and the group `attributes` names must be the organization's, the group of `statusPageId`: one 422 per attribute. */
async function checked(ctx: WriteContext, statusPageId: unknown, attributes: Row): Promise<Row> {
  const problems: { attribute: string; detail: string; code: ComponentsErrorCode }[] = [];
  const { status, status_page_component_group_id: groupId } = attributes;
  if (typeof status === 'string') {
    const found = (await ctx.manager.query('SELECT 1 FROM statuses WHERE organization_id = $1 AND slug = $2 AND enabled', [ctx.organizationId, status])) as unknown[];
    if (!found.length) problems.push({ attribute: 'status', detail: `status: ${status} is not the slug of an enabled status of this organization (GET /v1/statuses)`, code: ComponentsErrorCode.UnknownStatus });
  }
  if (typeof groupId === 'string') {
    // Locked until the commit: a concurrent delete of the group then sees this component in it.
    const found = (await ctx.manager.query('SELECT 1 FROM status_page_component_groups WHERE organization_id = $1 AND status_page_id = $2 AND id = $3 FOR KEY SHARE', [
      ctx.organizationId,
      statusPageId,
      groupId.toLowerCase(),
    ])) as unknown[];
    if (!found.length) {
      problems.push({ attribute: 'status_page_component_group_id', detail: `status_page_component_group_id: ${groupId} is not a component group of status page ${String(statusPageId)}`, code: ComponentsErrorCode.UnknownComponentGroup });
    }
  }
  if (problems.length) throw JsonApiError.invalidAttributes(problems);
  return checkReferenced(ctx, attributes, REFERENCES);
}

export const statusPageComponentDefinition: ResourceDefinition = {
  schema: statusPageComponentSchema,
  context: 'status-pages',
  table: 'status_page_components',
  permission: STATUS_PAGE_CHILD_PERMISSION,
  rules: {
    beforeCreate: (attributes, ctx) => checked(ctx, attributes.status_page_id, attributes),
    beforeUpdate: (current, changes, ctx) => checked(ctx, current.status_page_id, changes),
  },
};
