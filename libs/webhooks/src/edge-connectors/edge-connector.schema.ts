import { existingCatalogIds } from '@taproot/catalog';
import { existingTeamIds } from '@taproot/identity';
import { defineResource, JsonApiError, type AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { WEBHOOK_EVENT_TYPES } from '../webhook-event-types';
import { edgeConnectorActionDefinition } from './edge-connector-action.schema';

const ids = (description: string): AttributeDef => ({ type: 'array', items: { type: 'string' }, description });

/**
 * An edge connector (docs/edge-connectors.md): an agent inside a customer's network that receives
 * the events it subscribes to (filtered by services, functionalities, environments and teams) and
 * runs its actions. Taproot keeps the connectors and actions the hosted API's clients manage;
 * no agent connects to it yet, so `online` stays false.
 */
export const edgeConnectorSchema = defineResource({
  type: 'edge_connectors',
  singular: 'edge_connector',
  path: '/v1/edge_connectors',
  readTable: 'edge_connectors_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // The reference's list parameters.
  queryAliases: { page: 'page[number]', per_page: 'page[size]', status: 'filter[status]', name: 'filter[name]' },
  updateMethod: 'patch',
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'Connector name' },
    description: { type: 'string', nullable: true, maxLength: 10000, searchable: true, description: 'Connector description' },
    status: { type: 'string', enum: ['active', 'paused'], default: 'active', filter: true, description: 'Connector status' },
    subscriptions: { type: 'array', items: { type: 'string', enum: WEBHOOK_EVENT_TYPES }, default: [], description: 'Event types the connector receives' },
    filters: {
      type: 'object',
      nullable: true,
      description: 'Event filters: OR within a dimension, AND across dimensions',
      properties: {
        environment_ids: ids('Filter by environment UUIDs'),
        functionality_ids: ids('Filter by functionality UUIDs'),
        group_ids: ids('Filter by group UUIDs'),
        service_ids: ids('Filter by service UUIDs'),
      },
    },
    online: { type: 'boolean', writable: false, default: false, description: 'Whether the connector is connected now' },
  },
});

/** Where each filter's records live, through their contexts' lookups. */
const FILTERS: Record<string, { noun: string; existing(ctx: WriteContext, ids: string[]): Promise<Set<string>> }> = {
  environment_ids: { noun: 'an environment', existing: (ctx, ids) => existingCatalogIds(ctx.manager, ctx.organizationId, 'environments', ids) },
  functionality_ids: { noun: 'a functionality', existing: (ctx, ids) => existingCatalogIds(ctx.manager, ctx.organizationId, 'functionalities', ids) },
  service_ids: { noun: 'a service', existing: (ctx, ids) => existingCatalogIds(ctx.manager, ctx.organizationId, 'services', ids) },
  group_ids: { noun: 'a team', existing: (ctx, ids) => existingTeamIds(ctx.manager, ctx.organizationId, ids) },
};

/** Every record a connector's filters name is the organization's (422 at `filters/<dimension>/<i>`); ids stored lower-cased, once. */
async function checkFilters(ctx: WriteContext, attributes: Row): Promise<Row> {
  const filters = attributes.filters as Record<string, string[] | undefined> | null | undefined;
  if (filters == null) return attributes;
  const checked: Record<string, string[]> = {};
  for (const [dimension, { noun, existing }] of Object.entries(FILTERS)) {
    const wanted = filters[dimension];
    if (wanted === undefined) continue;
    const found = await existing(ctx, wanted);
    const unknown = wanted.findIndex((id) => !found.has(String(id).toLowerCase()));
    if (unknown >= 0) {
      throw JsonApiError.invalidAttributes([{ attribute: `filters/${dimension}/${unknown}`, detail: `filters.${dimension}[${unknown}]: ${wanted[unknown]} is not ${noun} of this organization`, code: 'UNKNOWN_REFERENCE' }]);
    }
    checked[dimension] = [...new Set(wanted.map((id) => id.toLowerCase()))];
  }
  return { ...attributes, filters: checked };
}

export const edgeConnectorDefinition: ResourceDefinition = {
  schema: edgeConnectorSchema,
  context: 'webhooks',
  table: 'edge_connectors',
  permission: { family: 'webhooks' },
  children: () => [edgeConnectorActionDefinition],
  rules: {
    beforeCreate: (attributes, ctx) => checkFilters(ctx, attributes),
    beforeUpdate: (_current, changes, ctx) => checkFilters(ctx, changes),
  },
};
