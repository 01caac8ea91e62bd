import { existingTeamIds, teamIdsOf, teamRecords, teamSchema } from '@taproot/identity';
import { readRecords, type Queryable, type ResourceObject, type ResourceSchema } from '@taproot/json-api';
import { catalogEntitySchema } from '../catalog-entities/catalog-entity.schema';
import type { CatalogTypeName } from '../catalog-properties/catalog-property.schema';
import { causeSchema } from '../causes/cause.schema';
import { environmentSchema } from '../environments/environment.schema';
import { functionalitySchema } from '../functionalities/functionality.schema';
import { incidentTypeSchema } from '../incident-types/incident-type.schema';
import { serviceSchema } from '../services/service.schema';
import type { ChecklistCatalogType } from './catalog-checklist-template.schema';

/** The scope a template covers: the team whose records, or the catalog whose entities. */
export interface ChecklistScope {
  type: 'Team' | 'Catalog';
  id: string | null;
}

/**
 * What a template of one catalog type audits: the records' type on their checklists, the
 * catalog properties its custom fields may name (`catalog_type` of a property), the records'
 * declaration (the keys builtin fields and field owners may name) and how to find and read them.
 */
export interface ChecklistKind {
  auditable: string;
  property: CatalogTypeName;
  schema: ResourceSchema;
  /** The records the scope covers, oldest first (write tables: the trigger's transaction). */
  ids(db: Queryable, organizationId: string, scope: ChecklistScope): Promise<string[]>;
  /** The records as their own API answers them, by id. */
  records(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Map<string, ResourceObject>>;
}

async function idsOf(db: Queryable, sql: string, params: unknown[]): Promise<string[]> {
  return ((await db.query(sql, params)) as { id: string }[]).map((r) => r.id);
}

/**
 * A kind of the catalog's own: every record of the organization, or with a team scope those the
 * team owns where the records name owner teams (services, functionalities); environments, causes
 * and incident types name none, so a team's template covers them all.
 */
function catalogKind(auditable: string, property: CatalogTypeName, schema: ResourceSchema, table: string): ChecklistKind {
  const byTeam = 'owner_group_ids' in schema.attributes;
  return {
    auditable,
    property,
    schema,
    ids: (db, organizationId, scope) =>
      byTeam && scope.type === 'Team' && scope.id
        ? idsOf(db, `SELECT id::text AS id FROM ${table} WHERE organization_id = $1 AND $2 = ANY(owner_group_ids) ORDER BY created_at, id`, [organizationId, scope.id])
        : idsOf(db, `SELECT id::text AS id FROM ${table} WHERE organization_id = $1 ORDER BY created_at, id`, [organizationId]),
    records: (db, organizationId, ids) => readRecords(db, schema, organizationId, ids),
  };
}

export const CHECKLIST_KINDS: Record<ChecklistCatalogType, ChecklistKind> = {
  Service: catalogKind('Service', 'service', serviceSchema, 'services'),
  Functionality: catalogKind('Functionality', 'functionality', functionalitySchema, 'functionalities'),
  Environment: catalogKind('Environment', 'environment', environmentSchema, 'environments'),
  Cause: catalogKind('Cause', 'cause', causeSchema, 'causes'),
  IncidentType: catalogKind('IncidentType', 'incident_type', incidentTypeSchema, 'incident_types'),
  // Teams are identity's: asked through its ports. A team's template audits that team.
  Group: {
    auditable: 'Group',
    property: 'team',
    schema: teamSchema,
    ids: async (db, organizationId, scope) => (scope.type === 'Team' && scope.id ? [...(await existingTeamIds(db, organizationId, [scope.id]))] : teamIdsOf(db, organizationId)),
    records: teamRecords,
  },
  // A custom catalog's entities; its template is scoped by that catalog (checked when written).
  Catalog: {
    auditable: 'CatalogEntity',
    property: 'catalog',
    schema: catalogEntitySchema,
    ids: (db, organizationId, scope) => idsOf(db, 'SELECT id::text AS id FROM catalog_entities WHERE organization_id = $1 AND catalog_id = $2 ORDER BY created_at, id', [organizationId, scope.id]),
    records: (db, organizationId, ids) => readRecords(db, catalogEntitySchema, organizationId, ids),
  },
};
