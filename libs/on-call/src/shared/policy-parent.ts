import type { AttributeDef, ParentDef } from '@taproot/json-api';
import type { Reference, ResourceDefinition } from '@taproot/resources';
import { OnCallErrorCode } from '../errors';

/** Records under an escalation policy: created and listed at `/v1/escalation_policies/{escalation_policy_id}/<segment>`. */
export const underPolicy = (segment: string): ParentDef => ({ path: '/v1/escalation_policies', param: 'escalation_policy_id', attribute: 'escalation_policy_id', table: 'escalation_policies', segment, onParentDelete: 'cascade' });

export const ESCALATION_POLICY_ID: AttributeDef = { type: 'string', format: 'uuid', writable: 'create', filter: ['eq', 'in'], description: 'The ID of the escalation policy' };

/** Paths of a policy a record may name (of one kind when given): the path run after a deferral, a level's path. */
export const pathOfPolicy = (policyId: string, kind?: 'escalation'): Reference => ({
  noun: kind ? `${kind} path of this policy` : 'path of this policy',
  code: OnCallErrorCode.UnknownReference,
  existing: async (db, org, ids) => {
    const rows = (await db.query(
      `SELECT id::text FROM escalation_paths WHERE organization_id = $1 AND escalation_policy_id = $2 AND ($3::text IS NULL OR path_type = $3) AND id::text = ANY($4)`,
      [org, policyId, kind ?? null, ids],
    )) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  },
});

/** Records that are part of a policy (its paths and levels): read with it, every write changes it. */
export const PART_OF_POLICY: ResourceDefinition['permission'] = { family: 'escalation_policies', writes: 'update' };
