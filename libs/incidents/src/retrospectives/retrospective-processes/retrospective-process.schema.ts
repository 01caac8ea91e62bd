import { existingCatalogIds } from '@taproot/catalog';
import { existingTeamIds } from '@taproot/identity';
import { defineResource, JsonApiError, type AttributeDef } from '@taproot/json-api';
import { type Reference, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { IncidentsErrorCode } from '../../errors';
import { retrospectiveProcessGroupDefinition } from '../retrospective-process-groups/retrospective-process-group.schema';
import { retrospectiveStepDefinition } from '../retrospective-steps/retrospective-step.schema';

/** `copy_from`'s value that copies Taproot's starter steps instead of another process' (docs/retrospectives.md). */
export const STARTER_TEMPLATE = 'starter_template';

const ids = (description: string): AttributeDef => ({ type: 'array', items: { type: 'string', format: 'uuid' }, description });

/** What a process matches, by kind: the records each names (a retrospective configuration's too). */
export const CRITERIA: Record<string, Reference> = {
  severity_ids: { noun: 'severity', code: IncidentsErrorCode.UnknownReference, existing: (db, org, list) => existingCatalogIds(db, org, 'severities', list) },
  group_ids: { noun: 'team', code: IncidentsErrorCode.UnknownReference, existing: existingTeamIds },
  incident_type_ids: { noun: 'incident type', code: IncidentsErrorCode.UnknownReference, existing: (db, org, list) => existingCatalogIds(db, org, 'incident_types', list) },
};

/**
 * A retrospective process (docs/retrospectives.md): the steps an incident's retrospective goes
 * through, for the incidents its matching criteria select. A create copies the steps of
 * `copy_from` (another process, or the starter template); its delete removes its groups and steps.
 */
export const retrospectiveProcessSchema = defineResource({
  type: 'retrospective_processes',
  singular: 'retrospective_process',
  path: '/v1/retrospective_processes',
  readTable: 'retrospective_processes_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the retrospective process' },
    description: { type: 'string', nullable: true, searchable: true, description: 'The description of the retrospective process' },
    // Taproot makes no default process: every process is the organization's own.
    is_default: { type: 'boolean', nullable: true, writable: false, default: false, description: 'Indicates the default process, the fallback when no process matches an incident' },
    retrospective_process_matching_criteria: {
      type: 'object',
      nullable: true,
      // The reference's answer declares a non-nullable oneOf: a process without criteria has none, not null.
      omitWhenNull: true,
      properties: {
        severity_ids: ids('Severity IDs for retrospective process matching criteria'),
        group_ids: ids('Team IDs for retrospective process matching criteria'),
        incident_type_ids: ids('Incident type IDs for retrospective process matching criteria'),
      },
      description: 'The incidents the process is for: exactly one of severity_ids, group_ids or incident_type_ids',
    },
  },
  inputOnlyAttributes: {
    copy_from: {
      type: 'string',
      required: true,
      minLength: 1,
      description: `Retrospective process ID from which retrospective steps have to be copied. To use starter template for retrospective steps provide value: '${STARTER_TEMPLATE}'`,
    },
  },
});

const POINTER = 'retrospective_process_matching_criteria';

/** The criteria name one kind of record (the reference's oneOf), all of the organization. */
async function checkCriteria(ctx: WriteContext, attributes: Row): Promise<Row> {
  const criteria = attributes[POINTER] as Record<string, string[]> | null | undefined;
  if (criteria == null) return attributes;
  // An empty list beside others names nothing: clients built on the reference (its Terraform provider) send every kind, the unused ones empty.
  const named = Object.keys(criteria).filter((kind) => (criteria[kind] ?? []).length > 0);
  const kinds = named.length === 0 && Object.keys(criteria).length === 1 ? Object.keys(criteria) : named;
  if (kinds.length !== 1) {
    throw JsonApiError.invalidAttributes([{ attribute: POINTER, detail: `${POINTER} names exactly one of severity_ids, group_ids or incident_type_ids (got ${kinds.join(', ') || 'none'})` }]);
  }
  const [kind] = kinds;
  const list = [...new Set(criteria[kind].map((id) => id.toLowerCase()))];
  const { noun, code, existing } = CRITERIA[kind];
  const found = await existing(ctx.manager, ctx.organizationId, list);
  const issues = list.flatMap((id, i) => (found.has(id) ? [] : [{ attribute: `${POINTER}/${kind}/${i}`, detail: `${POINTER}.${kind}[${i}]: ${id} is not a ${noun} of this organization`, code }]));
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
  return { ...attributes, [POINTER]: { [kind]: list } };
}

export const retrospectiveProcessDefinition: ResourceDefinition = {
  schema: retrospectiveProcessSchema,
  context: 'incidents',
  table: 'retrospective_processes',
  permission: { family: 'retrospective' },
  // Groups first: their group steps name the steps.
  children: () => [retrospectiveProcessGroupDefinition, retrospectiveStepDefinition],
  rules: {
    beforeCreate: (attributes, ctx) => checkCriteria(ctx, attributes),
    beforeUpdate: (_current, changes, ctx) => checkCriteria(ctx, changes),
  },
};
