import { randomUUID } from 'node:crypto';
import type { AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';

/** Where a boolean's or resource's severity_params is kept, by the record's id (docs/incident-permission-sets.md). */
const TABLE = 'incident_permission_severity_params';

/**
 * The reference's `severity_params` of a permission set boolean or resource: input-only (the spec
 * says so for resources; the reference's answers carry it for neither), so declared among the
 * `inputOnlyAttributes` and kept beside the record, never in it.
 */
export const SEVERITY_PARAMS: AttributeDef = {
  type: 'object',
  // null: back to the defaults (every severity), as if never sent.
  nullable: true,
  description: 'Which incidents the permission applies to by severity. Input only: stored, never answered.',
  properties: {
    fully_enabled: { type: 'boolean', description: 'Whether permissions are enabled for any severity incident (default true)' },
    create_enabled: { type: 'boolean', description: 'Whether permissions are enabled when creating incident (default false)' },
    applies_to_unassigned: { type: 'boolean', description: 'Whether permissions are enabled for incident without severity (default true)' },
    severity_ids: { type: 'array', nullable: true, items: { type: 'string', format: 'uuid' }, description: 'Severity ids that determine if an incident is permitted based on matching severity' },
  },
};

interface SeverityParams {
  fully_enabled?: boolean;
  create_enabled?: boolean;
  applies_to_unassigned?: boolean;
  severity_ids?: string[] | null;
}

/**
 * Stores what a create or update sent as `severity_params` for the record `id` (of the set
 * `setId`): the whole object, members left out taking the reference's defaults; null removes it
 * (the defaults again). Not sent: unchanged. Answers the attributes without it.
 */
async function keepSeverityParams(ctx: WriteContext, id: string, setId: string, { severity_params: sent, ...attributes }: Row): Promise<Row> {
  if (sent === undefined) return attributes;
  if (sent === null) {
    await ctx.manager.query(`DELETE FROM ${TABLE} WHERE organization_id = $1 AND record_id = $2`, [ctx.organizationId, id]);
    return attributes;
  }
  const params = sent as SeverityParams;
  const severityIds = [...new Set((params.severity_ids ?? []).map((s) => s.toLowerCase()))];
  await ctx.manager.query(
    `INSERT INTO ${TABLE} (record_id, organization_id, incident_permission_set_id, fully_enabled, create_enabled, applies_to_unassigned, severity_ids, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (record_id) DO UPDATE SET fully_enabled = $4, create_enabled = $5, applies_to_unassigned = $6, severity_ids = $7, updated_at = $8`,
    [id, ctx.organizationId, setId, params.fully_enabled ?? true, params.create_enabled ?? false, params.applies_to_unassigned ?? true, severityIds, ctx.now],
  );
  return attributes;
}

type Rules = NonNullable<ResourceDefinition['rules']>;

/**
 * The rules of a record taking `severity_params` (a set's booleans and resources): kept under the
 * record's id (assigned here on create, so it is known before the insert), removed with it.
 * `normalize` completes the other attributes first (a resource's kind).
 */
export function severityParamsRules(normalize: { create?: (attributes: Row) => Row; update?: (current: Row, changes: Row) => Row } = {}): Rules {
  return {
    async beforeCreate(attributes, ctx) {
      const id = randomUUID();
      const kept = await keepSeverityParams(ctx, id, String(attributes.incident_permission_set_id), normalize.create?.(attributes) ?? attributes);
      return { ...kept, id };
    },
    beforeUpdate: (current, changes, ctx) => keepSeverityParams(ctx, String(current.id), String(current.incident_permission_set_id), normalize.update?.(current, changes) ?? changes),
    async beforeDelete(current, ctx) {
      await ctx.manager.query(`DELETE FROM ${TABLE} WHERE organization_id = $1 AND record_id = $2`, [ctx.organizationId, current.id]);
    },
  };
}
