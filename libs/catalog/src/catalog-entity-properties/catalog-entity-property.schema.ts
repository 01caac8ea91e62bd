import { byIdAttribute, defineIncludes, defineResource, JsonApiError, recordsOf } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { catalogEntitySchema } from '../catalog-entities/catalog-entity.schema';
import { catalogPropertySchema } from '../catalog-properties/catalog-property.schema';

/** Values one entity may hold of one property (reference, `new_catalog_entity_property`). */
export const MAX_VALUES_PER_FIELD = 50;

/**
 * The deprecated per-value records of an entity (reference: `catalog_entity_properties`; the
 * hosted API points to the entity's `properties` instead): created and listed under the entity,
 * read, changed and deleted at `/v1/catalog_entity_properties/{id}`. Kept apart from the entity's
 * `properties`, as clients of the old API wrote them.
 */
export const catalogEntityPropertySchema = defineResource({
  type: 'catalog_entity_properties',
  singular: 'catalog_entity_property',
  path: '/v1/catalog_entity_properties',
  readTable: 'catalog_entity_properties_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: { path: '/v1/catalog_entities', param: 'catalog_entity_id', attribute: 'catalog_entity_id', table: 'catalog_entities', segment: 'properties', onParentDelete: 'cascade' },
  // The reference's include enum: the entity the value belongs to and the property (the
  // reference's catalog field) it is a value of.
  relationships: {
    catalog_entity: { type: 'catalog_entities', many: false, idAttribute: 'catalog_entity_id' },
    catalog_field: { type: 'catalog_properties', many: false, idAttribute: 'catalog_field_id' },
  },
  attributes: {
    catalog_entity_id: { type: 'string', format: 'uuid', writable: 'create', description: 'The catalog entity the value belongs to' },
    catalog_field_id: { type: 'string', format: 'uuid', required: true, writable: 'create', filter: true, description: 'The catalog property the value is of' },
    key: { type: 'string', required: true, enum: ['text', 'catalog_entity', 'slack'], filter: true, description: 'What the value is' },
    value: { type: 'string', required: true, description: 'The value' },
  },
});

/** The property a value is of: one of the entity's catalog. */
async function checkField(attributes: Row, ctx: WriteContext): Promise<void> {
  const [property] = (await ctx.manager.query(
    `SELECT p.id FROM catalog_properties p JOIN catalog_entities e ON e.organization_id = p.organization_id AND e.catalog_id = p.catalog_id
      WHERE p.organization_id = $1 AND p.id = $2 AND e.id = $3`,
    [ctx.organizationId, attributes.catalog_field_id, attributes.catalog_entity_id],
  )) as { id: string }[];
  if (!property) {
    const detail = `catalog_field_id ${String(attributes.catalog_field_id)} is not a property of the entity's catalog`;
    throw JsonApiError.invalidAttributes([{ attribute: 'catalog_field_id', detail, code: 'NOT_FOUND' }]);
  }
  const [{ count }] = (await ctx.manager.query(
    'SELECT count(*)::int AS count FROM catalog_entity_properties WHERE organization_id = $1 AND catalog_entity_id = $2 AND catalog_field_id = $3',
    [ctx.organizationId, attributes.catalog_entity_id, attributes.catalog_field_id],
  )) as { count: number }[];
  if (count >= MAX_VALUES_PER_FIELD) {
    throw JsonApiError.invalidAttributes([{ attribute: 'catalog_field_id', detail: `at most ${MAX_VALUES_PER_FIELD} values per catalog field (this entity has ${count})`, code: 'LIMIT_EXCEEDED' }]);
  }
}

export const catalogEntityPropertyDefinition: ResourceDefinition = {
  schema: catalogEntityPropertySchema,
  context: 'catalog',
  table: 'catalog_entity_properties',
  permission: { family: 'catalogs' },
  includes: defineIncludes(catalogEntityPropertySchema, {
    catalog_entity: byIdAttribute('catalog_entity_id', recordsOf(catalogEntitySchema)),
    catalog_field: byIdAttribute('catalog_field_id', recordsOf(catalogPropertySchema)),
  }),
  rules: {
    async beforeCreate(attributes, ctx) {
      await checkField(attributes, ctx);
      return attributes;
    },
  },
};
