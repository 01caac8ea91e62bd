import { defineResource, JsonApiError } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { IncidentsErrorCode } from '../../errors';

/**
 * A step placed in a retrospective process group (docs/retrospectives.md): created and listed
 * under the group, read, moved and deleted at `/v1/retrospective_process_group_steps/{id}`. It
 * names a step of the group's own process.
 */
export const retrospectiveProcessGroupStepSchema = defineResource({
  type: 'retrospective_process_group_steps',
  singular: 'retrospective_process_group_step',
  path: '/v1/retrospective_process_group_steps',
  readTable: 'retrospective_process_group_steps_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: {
    path: '/v1/retrospective_process_groups',
    param: 'retrospective_process_group_id',
    attribute: 'retrospective_process_group_id',
    table: 'retrospective_process_groups',
    segment: 'steps',
    onParentDelete: 'cascade',
  },
  attributes: {
    retrospective_process_group_id: { type: 'string', format: 'uuid', writable: false, description: 'The group the step is placed in (the path decides)' },
    retrospective_step_id: { type: 'string', format: 'uuid', required: true, writable: 'create', alwaysStored: true, filter: ['eq', 'in'], description: 'The retrospective step placed in the group' },
    position: { type: 'integer', alwaysStored: true, minimum: 0, filter: true, sortable: true, description: 'Position of the step in the group' },
  },
});

async function checkStep(attributes: Row, ctx: WriteContext): Promise<Row> {
  const refuse = (detail: string, code: IncidentsErrorCode) => JsonApiError.invalidAttributes([{ attribute: 'retrospective_step_id', detail, code }]);
  const params = [ctx.organizationId, attributes.retrospective_process_group_id, attributes.retrospective_step_id];
  const [row] = (await ctx.manager.query(
    `SELECT s.retrospective_process_id = g.retrospective_process_id AS same_process
       FROM retrospective_steps s, retrospective_process_groups g
      WHERE s.organization_id = $1 AND g.organization_id = $1 AND g.id = $2 AND s.id = $3`,
    params,
  )) as { same_process: boolean }[];
  const id = String(attributes.retrospective_step_id);
  if (!row) throw refuse(`retrospective_step_id: ${id} is not a retrospective step of this organization`, IncidentsErrorCode.UnknownReference);
  if (!row.same_process) throw refuse(`retrospective_step_id: ${id} is a step of another retrospective process than the group's`, IncidentsErrorCode.UnknownReference);
  return attributes;
}

export const retrospectiveProcessGroupStepDefinition: ResourceDefinition = {
  schema: retrospectiveProcessGroupStepSchema,
  context: 'incidents',
  table: 'retrospective_process_group_steps',
  permission: { family: 'retrospective' },
  rules: { beforeCreate: checkStep },
};
