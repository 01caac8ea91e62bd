import { isUuid, type Queryable } from '@taproot/json-api';
import { functionalitySchema } from './functionalities/functionality.schema';
import { serviceSchema } from './services/service.schema';

/** Whom an alert on a service or functionality pages: its escalation policy and its owning teams. */
export interface PagingTarget {
  escalationPolicyId: string | null;
  owningTeamIds: string[];
}

const READ_TABLES = { services: serviceSchema.readTable, functionalities: functionalitySchema.readTable } as const;

/**
 * What the paging engine (alerting) asks of the catalog, from its read models: for each of the
 * organization's records among `ids` (lower-cased uuids; other strings name none), its
 * `escalation_policy_id` (an empty one is none) and `owner_group_ids`.
 */
export async function pagingTargetsOf(db: Queryable, organizationId: string, kind: 'services' | 'functionalities', ids: readonly string[]): Promise<Map<string, PagingTarget>> {
  const wanted = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
  if (wanted.length === 0) return new Map();
  const rows = (await db.query(`SELECT id::text, escalation_policy_id, owner_group_ids FROM ${READ_TABLES[kind]} WHERE organization_id = $1 AND id = ANY($2::uuid[])`, [organizationId, wanted])) as {
    id: string;
    escalation_policy_id: string | null;
    owner_group_ids: string[] | null;
  }[];
  return new Map(rows.map((row) => [row.id, { escalationPolicyId: row.escalation_policy_id || null, owningTeamIds: row.owner_group_ids ?? [] }]));
}
