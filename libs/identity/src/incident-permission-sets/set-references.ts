import { isUuid, JsonApiError } from '@taproot/json-api';
import type { Row, WriteContext } from '@taproot/resources';

/**
 * A role's `incident_permission_set_id`, when it names one, must be a set of the organization
 * (422 naming it); stored as that set's id. Roles are written in this context, so the look-up is local.
 */
export async function checkIncidentPermissionSet(attributes: Row, ctx: WriteContext): Promise<Row> {
  const sent = attributes.incident_permission_set_id;
  if (sent === undefined || sent === null) return attributes;
  const id = String(sent).toLowerCase();
  const found = isUuid(id) ? ((await ctx.manager.query('SELECT 1 FROM incident_permission_sets WHERE organization_id = $1 AND id = $2', [ctx.organizationId, id])) as unknown[]) : [];
  if (found.length === 0) {
    throw JsonApiError.invalidAttributes([{ attribute: 'incident_permission_set_id', detail: `incident_permission_set_id ${JSON.stringify(sent)} is not an incident permission set of this organization` }]);
  }
  return { ...attributes, incident_permission_set_id: id };
}
