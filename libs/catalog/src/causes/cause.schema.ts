import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { catalogProperties, namedAndOrdered } from '../shared/catalog-attributes';

export const causeSchema = defineResource({
  type: 'causes',
  singular: 'cause',
  path: '/v1/causes',
  readTable: 'causes_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    ...namedAndOrdered('cause'),
    // The reference's `cause` never answers null here: an empty list instead.
    properties: catalogProperties('cause', { nullable: false, default: [] }),
  },
});

export const causeDefinition: ResourceDefinition = {
  schema: causeSchema,
  context: 'catalog',
  table: 'causes',
  // Roles name this family after the incident field, not the collection.
  permission: { family: 'incident_causes' },
};
