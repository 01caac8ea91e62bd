import { existingIds, type AttributeDef, type Queryable } from '@taproot/json-api';
import type { Reference } from '@taproot/resources';
import { IncidentsErrorCode } from '../errors';
import { position } from '../forms/form-rules';

/**
 * Where a communications resource is served and how (the hosted API's swagger): under
 * `/v1/communications/<plural>`, every operation, updates by PATCH only.
 */
export const servedAt = <P extends 'types' | 'stages' | 'templates' | 'groups'>(plural: P) =>
  ({
    type: `communications_${plural}`,
    singular: `communications_${plural.slice(0, -1)}`,
    path: `/v1/communications/${plural}`,
    readTable: `communications_${plural}_read`,
    operations: ['list', 'create', 'get', 'update', 'delete'],
    updateMethod: 'patch',
  }) as const;

/** Name, the slug derived from it, and description: every communications record has them (the hosted API's swagger). */
export const named = (noun: string): Record<string, AttributeDef> => ({
  name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: `The name of the ${noun}` },
  slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: `The slug of the ${noun}` },
  description: { type: 'string', nullable: true, searchable: true, description: `The description of the ${noun}` },
});

/** The place of a type, stage or template in its list: last when omitted. */
export const ordered = (noun: string): AttributeDef => position(noun, { description: `Position of the ${noun}` });

/** The communication type a template or group is of: one of the organization's (422 otherwise). */
export const communicationTypeId = (noun: string): AttributeDef => ({
  type: 'string',
  format: 'uuid',
  required: true,
  filter: ['eq', 'in'],
  description: `The communication type ID of the ${noun}`,
});

export const COMMUNICATION_TYPES: Reference = { noun: 'communications type', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingIds(db, 'communications_types', org, ids) };
export const COMMUNICATION_STAGES: Reference = { noun: 'communications stage', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingIds(db, 'communications_stages', org, ids) };

/** The read of one stored row's name (a type's, a stage's) in the command's transaction. */
export async function namesOf(db: Queryable, table: 'communications_types' | 'communications_stages', organizationId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = (await db.query(`SELECT id::text AS id, name FROM ${table} WHERE organization_id = $1 AND id = ANY($2::uuid[])`, [organizationId, [...ids]])) as { id: string; name: string }[];
  return new Map(rows.map((r) => [r.id, r.name]));
}
