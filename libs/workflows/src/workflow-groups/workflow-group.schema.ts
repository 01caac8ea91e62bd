import { defineResource } from '@taproot/json-api';
import { ResourceWriter, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import type { DomainEvent } from '@taproot/messaging';
import { named, position } from '../shared/attributes';
import { workflowDefinition } from '../workflows/workflow.schema';

/** The reference's kinds of workflow group: what its workflows are triggered by. */
export const WORKFLOW_GROUP_KINDS = ['simple', 'incident', 'post_mortem', 'action_item', 'pulse', 'alert'] as const;

/**
 * A named, ordered group of workflows (docs/workflows.md). Deleting one leaves its workflows
 * ungrouped (`workflow_group_id` null, each with its `workflow.updated`): a workflow outlives its folder.
 */
export const workflowGroupSchema = defineResource({
  type: 'workflow_groups',
  singular: 'workflow_group',
  path: '/v1/workflow_groups',
  readTable: 'workflow_groups_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    ...named('workflow group'),
    description: { type: 'string', nullable: true, searchable: true, description: 'A description of the workflow group.' },
    // The reference names no defaults: a new group is shown open, with a bolt.
    expanded: { type: 'boolean', default: true, filter: true, description: 'Whether the group is expanded or collapsed.' },
    icon: { type: 'string', default: '⚡', maxLength: 32, description: 'An emoji icon displayed next to the workflow group.' },
    kind: { type: 'string', nullable: true, enum: WORKFLOW_GROUP_KINDS, filter: true, description: 'The kind of the workflow group' },
    position: position('workflow group'),
  },
});

async function ungroupWorkflows(group: Row, ctx: WriteContext): Promise<DomainEvent[]> {
  const rows = (await ctx.manager.query('SELECT id FROM workflows WHERE organization_id = $1 AND workflow_group_id = $2 ORDER BY created_at, id', [ctx.organizationId, group.id])) as { id: string }[];
  const writer = new ResourceWriter(workflowDefinition);
  const events: DomainEvent[] = [];
  for (const row of rows) events.push(...(await writer.update(ctx, row.id, { workflow_group_id: null })).events);
  return events;
}

export const workflowGroupDefinition: ResourceDefinition = {
  schema: workflowGroupSchema,
  context: 'workflows',
  table: 'workflow_groups',
  permission: { family: 'workflows' },
  rules: { beforeDelete: ungroupWorkflows },
};
