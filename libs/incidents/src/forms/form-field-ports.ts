import { existingIds, type Queryable } from '@taproot/json-api';
import type { FormResourceType } from './form-rules';

/**
 * What other contexts may ask about the organization's form fields, custom fields and their
 * options (workflow conditions name them), so they never read these tables themselves.
 */

/** The ids among `ids` naming form fields of the organization (of `resourceType`, when given). */
export async function existingFormFieldIds(db: Queryable, organizationId: string, ids: readonly string[], resourceType?: FormResourceType): Promise<Set<string>> {
  const found = await existingIds(db, 'form_fields', organizationId, ids);
  if (!resourceType || found.size === 0) return found;
  const rows = (await db.query('SELECT id::text AS id FROM form_fields WHERE organization_id = $1 AND id = ANY($2::uuid[]) AND resource_type = $3', [organizationId, [...found], resourceType])) as { id: string }[];
  return new Set(rows.map((r) => r.id));
}

/** The ids among `ids` naming custom fields of the organization. */
export const existingCustomFieldIds = (db: Queryable, organizationId: string, ids: readonly string[]): Promise<Set<string>> => existingIds(db, 'custom_fields', organizationId, ids);

const optionsOf = (table: string, fieldColumn: string) =>
  async (db: Queryable, organizationId: string, fieldId: string, ids: readonly string[]): Promise<Set<string>> => {
    const found = await existingIds(db, table, organizationId, ids);
    if (found.size === 0) return found;
    const rows = (await db.query(`SELECT id::text AS id FROM ${table} WHERE organization_id = $1 AND ${fieldColumn} = $2 AND id = ANY($3::uuid[])`, [organizationId, fieldId, [...found]])) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  };

/** The ids among `ids` naming options of the form field `fieldId` (of the organization). */
export const formFieldOptionsOf = optionsOf('form_field_options', 'form_field_id');

/** The ids among `ids` naming options of the custom field `fieldId` (of the organization). */
export const customFieldOptionsOf = optionsOf('custom_field_options', 'custom_field_id');
