import { existingTeamIds } from '@taproot/identity';
import { defineResource, JsonApiError } from '@taproot/json-api';
import { checkReferenced, ResourceWriter, type ResourceDefinition } from '@taproot/resources';
import { StatusPagesErrorCode } from '../status-pages/status-page-errors';
import { STATUS_PAGE_CHILD_PERMISSION, STATUS_PAGE_ID, UNDER_STATUS_PAGE } from '../status-pages/under-status-page';

export const PERMISSION_LEVELS = ['edit_and_publish', 'publish_only'] as const;

/**
 * A team's access to a status page (the spec's "Status page team assignment", type
 * `status_page_groups`; docs/status-pages.md): listed, created, changed and deleted under the page
 * (`/v1/status-pages/{status_page_id}/teams[/{id}]`, served by StatusPageTeamsController). One
 * grant per team and page; the team of a grant never changes.
 */
export const statusPageGroupSchema = defineResource({
  type: 'status_page_groups',
  singular: 'status_page_group',
  path: '/v1/status-pages/{status_page_id}/teams',
  readTable: 'status_page_groups_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  operationIds: { list: 'listStatusPageTeams', create: 'createStatusPageTeam', get: 'getStatusPageTeam', update: 'updateStatusPageTeam', delete: 'deleteStatusPageTeam' },
  parent: { ...UNDER_STATUS_PAGE, segment: 'teams' },
  attributes: {
    status_page_id: STATUS_PAGE_ID,
    group_id: { type: 'string', format: 'uuid', required: true, writable: 'create', filter: ['eq', 'in'], description: 'Team that is granted access; never changes' },
    permission_level: {
      type: 'string',
      enum: PERMISSION_LEVELS,
      default: 'publish_only',
      filter: ['eq', 'in'],
      description: 'publish_only: members post status page updates and announcements; edit_and_publish: they also edit the page, its components, templates and subscribers. Default publish_only',
    },
  },
});

export const statusPageGroupDefinition: ResourceDefinition = {
  schema: statusPageGroupSchema,
  context: 'status-pages',
  table: 'status_page_groups',
  permission: STATUS_PAGE_CHILD_PERMISSION,
  rules: {
    async beforeCreate(input, ctx) {
      const attributes = await checkReferenced(ctx, input, { group_id: { noun: 'team', code: StatusPagesErrorCode.UnknownReference, existing: existingTeamIds } });
      // Grants are made one at a time: a concurrent grant of the team is seen here (422), not by the unique index (500).
      await new ResourceWriter(statusPageGroupDefinition).takeTurns(ctx);
      const [granted] = (await ctx.manager.query('SELECT id FROM status_page_groups WHERE organization_id = $1 AND status_page_id = $2 AND group_id = $3', [
        ctx.organizationId,
        attributes.status_page_id,
        attributes.group_id,
      ])) as { id: string }[];
      if (granted) {
        throw JsonApiError.invalidAttributes([
          { attribute: 'group_id', detail: `group_id: team ${String(attributes.group_id)} already has a grant on this status page (${granted.id}); change its permission_level instead`, code: StatusPagesErrorCode.TeamAlreadyGranted },
        ]);
      }
      return attributes;
    },
  },
};
