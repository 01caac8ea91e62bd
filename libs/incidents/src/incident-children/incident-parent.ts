import type { AttributeDef, ListFilter, ParentDef, Queryable } from '@taproot/json-api';
import type { Caller } from '@taproot/auth';
import type { ParentAccess } from '@taproot/resources';
import { findIncident, incidentAccess, seesPrivate } from '../incidents/incident-access';
import type { IncidentKind } from '../incidents/incident.state';

/** Records under an incident: created and listed at `/v1/incidents/{incident_id}/<segment>`. */
export const underIncident = (segment: string, more: Partial<ParentDef> = {}): ParentDef => ({
  path: '/v1/incidents',
  param: 'incident_id',
  attribute: 'incident_id',
  table: 'incidents',
  segment,
  ...more,
});

/**
 * An incident's records are seen as the incident is (docs/incidents.md, Private incidents): named
 * by uuid or slug like the incident's own routes, a private one only for callers who may read
 * private incidents, 404 otherwise.
 */
export const incidentParentAccess: ParentAccess = {
  async find(db, caller, raw) {
    return String((await findIncident(db, 'incidents_read', incidentAccess(caller), raw)).id);
  },
};

/** The parent attribute (`ParentDef.attributes`) a list across incidents hides private incidents' records by. */
export const INCIDENT_PRIVATE: Record<string, AttributeDef> = { incident_private: { type: 'boolean', column: 'private' } };

/** The list across incidents leaves out the private incidents' records for callers who may not see them. */
export function hidePrivateIncidents(caller: Caller): ListFilter[] {
  if (seesPrivate(incidentAccess(caller))) return [];
  return [{ attribute: 'incident_private', operator: 'eq', values: [false], parameter: 'private' }];
}

/**
 * The kind of the organization's incident `id` (a uuid), for records another context keeps under
 * an incident that depend on it (a maintenance's status page events); null when there is none.
 */
export async function incidentKind(db: Queryable, organizationId: string, id: string): Promise<IncidentKind | null> {
  const [row] = (await db.query('SELECT kind FROM incidents WHERE id = $1 AND organization_id = $2', [id, organizationId])) as { kind: IncidentKind }[];
  return row?.kind ?? null;
}
