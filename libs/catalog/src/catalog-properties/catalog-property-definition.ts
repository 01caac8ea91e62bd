import { byIdAttribute, defineIncludes, JsonApiError, recordsOf, type ResourceSchema } from '@taproot/json-api';
import type { DomainEvent } from '@taproot/messaging';
import { ResourceWriter, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { catalogEntityDefinition } from '../catalog-entities/catalog-entity-definition';
import { catalogEntityPropertyDefinition } from '../catalog-entity-properties/catalog-entity-property.schema';
import { catalogSchema } from '../catalogs/catalog.schema';
import { causeDefinition } from '../causes/cause.schema';
import { environmentDefinition } from '../environments/environment.schema';
import { functionalityDefinition } from '../functionalities/functionality.schema';
import { incidentTypeDefinition } from '../incident-types/incident-type.schema';
import { serviceDefinition } from '../services/service.schema';
import { catalogPropertySchema, type CatalogTypeName } from './catalog-property.schema';

/** A catalog holds at most this many properties (reference, `new_catalog_property`). */
export const MAX_PROPERTIES_PER_CATALOG = 50;

/**
 * The built-in catalogs whose properties are served at `<collection>/properties` (reference:
 * `listServiceCatalogProperties`, ...): the collection, its catalog type and the operation ids' noun.
 */
export const BUILT_IN_CATALOGS = [
  { collection: '/v1/causes', catalogType: 'cause', noun: 'Cause' },
  { collection: '/v1/environments', catalogType: 'environment', noun: 'Environment' },
  { collection: '/v1/functionalities', catalogType: 'functionality', noun: 'Functionality' },
  { collection: '/v1/incident_types', catalogType: 'incident_type', noun: 'IncidentType' },
  { collection: '/v1/services', catalogType: 'service', noun: 'Service' },
  { collection: '/v1/teams', catalogType: 'team', noun: 'Group' },
] as const satisfies readonly { collection: string; catalogType: CatalogTypeName; noun: string }[];

/**
 * The catalog a property's values are records of: required for a `reference`, and when given
 * (other kinds keep it, unused, as the reference stores it) one of the organization's catalogs.
 */
async function checkKind(attributes: Row, ctx: WriteContext): Promise<void> {
  if (attributes.kind_catalog_id == null) {
    if (attributes.kind !== 'reference') return;
    throw JsonApiError.invalidAttributes([{ attribute: 'kind_catalog_id', detail: 'kind_catalog_id is required for kind reference: the catalog whose entities are the values', code: 'REQUIRED' }]);
  }
  const found = (await ctx.manager.query('SELECT 1 FROM catalogs WHERE organization_id = $1 AND id = $2', [ctx.organizationId, attributes.kind_catalog_id])) as unknown[];
  if (found.length === 0) throw JsonApiError.invalidAttributes([{ attribute: 'kind_catalog_id', detail: `kind_catalog_id ${String(attributes.kind_catalog_id)} is not a catalog of this organization`, code: 'NOT_FOUND' }]);
}

/**
 * The records whose `properties` hold values of a property, by catalog type (a custom catalog's:
 * its entities), written without their rules: removing a value never makes a record invalid.
 * Teams are the identity context's; their values of a deleted property stay (docs/catalogs.md).
 */
const HOLDERS: Partial<Record<CatalogTypeName, ResourceDefinition>> = Object.fromEntries(
  (
    [
      ['catalog', catalogEntityDefinition],
      ['cause', causeDefinition],
      ['environment', environmentDefinition],
      ['functionality', functionalityDefinition],
      ['incident_type', incidentTypeDefinition],
      ['service', serviceDefinition],
    ] as const
  ).map(([type, definition]) => [type, { ...definition, rules: undefined }]),
);

/** Removes a deleted property's values from the records holding them, each an update with its event. */
async function removeValues(property: Row, ctx: WriteContext): Promise<DomainEvent[]> {
  const holder = HOLDERS[property.catalog_type as CatalogTypeName];
  if (!holder) return [];
  const rows = (await ctx.manager.query(
    `SELECT id, properties FROM ${holder.table} WHERE organization_id = $1 AND properties @> $2::jsonb${property.catalog_id ? ' AND catalog_id = $3' : ''} ORDER BY created_at, id`,
    [ctx.organizationId, JSON.stringify([{ catalog_property_id: property.id }]), ...(property.catalog_id ? [property.catalog_id] : [])],
  )) as { id: string; properties: { catalog_property_id: string }[] }[];
  const writer = new ResourceWriter(holder);
  const events: DomainEvent[] = [];
  for (const row of rows) {
    const properties = row.properties.filter((p) => p.catalog_property_id !== property.id);
    events.push(...(await writer.update(ctx, row.id, { properties })).events);
  }
  return events;
}

export const catalogPropertyDefinition: ResourceDefinition = {
  schema: catalogPropertySchema,
  context: 'catalog',
  table: 'catalog_properties',
  permission: { family: 'catalogs' },
  includes: defineIncludes(catalogPropertySchema, { catalog: byIdAttribute('catalog_id', recordsOf(catalogSchema)) }),
  // The deprecated per-entity values of the property go with it.
  children: () => [{ definition: catalogEntityPropertyDefinition, attribute: 'catalog_field_id' }],
  rules: {
    beforeDelete: removeValues,
    async beforeCreate(attributes, ctx) {
      // Under a custom catalog the path decides the type; a built-in catalog's route sets its own.
      const catalogType = attributes.catalog_id == null ? attributes.catalog_type : 'catalog';
      if (attributes.catalog_type != null && attributes.catalog_type !== catalogType) {
        throw JsonApiError.invalidAttributes([{ attribute: 'catalog_type', detail: `catalog_type must be ${String(catalogType)} on this route (got ${String(attributes.catalog_type)})` }]);
      }
      await checkKind(attributes, ctx);
      const [{ count }] = (await ctx.manager.query(
        `SELECT count(*)::int AS count FROM catalog_properties WHERE organization_id = $1 AND ${attributes.catalog_id == null ? 'catalog_id IS NULL AND catalog_type = $2' : 'catalog_id = $2'}`,
        [ctx.organizationId, attributes.catalog_id ?? catalogType],
      )) as { count: number }[];
      if (count >= MAX_PROPERTIES_PER_CATALOG) {
        throw JsonApiError.of(422, 'Too many properties', `A catalog can have at most ${MAX_PROPERTIES_PER_CATALOG} properties; this one has ${count}`, 'LIMIT_EXCEEDED', { pointer: '/data' });
      }
      return { ...attributes, catalog_type: catalogType };
    },
    async beforeUpdate(current, changes, ctx) {
      if ('kind' in changes || 'kind_catalog_id' in changes) await checkKind({ ...current, ...changes }, ctx);
      return changes;
    },
  },
};

/**
 * The same records as a built-in catalog's routes list and write them: not under a catalog, the
 * route naming the type, its page links at the route. Not declared as a resource of its own (one
 * type, one OpenAPI description); the routes' operations are added to the document apart.
 */
export function builtInPropertiesDefinition(builtIn: (typeof BUILT_IN_CATALOGS)[number]): ResourceDefinition {
  return {
    ...catalogPropertyDefinition,
    schema: {
      ...catalogPropertySchema,
      parent: undefined,
      path: `${builtIn.collection}/properties`,
      operations: ['list', 'create'],
      operationIds: { list: `list${builtIn.noun}CatalogProperties`, create: `create${builtIn.noun}CatalogProperty` },
    } satisfies ResourceSchema,
  };
}
