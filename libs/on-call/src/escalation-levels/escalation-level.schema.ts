import { defineResource } from '@taproot/json-api';
import { checkReferenced, type Reference, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { ESCALATION_POLICY_ID, PART_OF_POLICY, pathOfPolicy, underPolicy } from '../shared/policy-parent';
import { SCHEDULES, SERVICES, TEAMS, USERS } from '../shared/references';

/** What a level notifies: the records of the organization each target type names; channels are the chat tool's ids. */
const TARGETS: Record<string, Reference | null> = { user: USERS, team: TEAMS, schedule: SCHEDULES, service: SERVICES, slack_channel: null, microsoft_teams_channel: null };

/**
 * A level of an escalation policy (reference: `escalation_policy_level`, type `escalation_levels`):
 * after `delay` minutes, its targets are paged, on its path (`escalation_policy_path_id`; left out,
 * the policy's default path). Created and listed under the policy, read and changed at
 * `/v1/escalation_levels/{id}`.
 */
export const escalationLevelSchema = defineResource({
  type: 'escalation_levels',
  singular: 'escalation_level',
  path: '/v1/escalation_levels',
  readTable: 'escalation_levels_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: underPolicy('escalation_levels'),
  attributes: {
    escalation_policy_id: ESCALATION_POLICY_ID,
    escalation_policy_path_id: { type: 'string', nullable: true, filter: ['eq', 'in', 'null', 'not_null'], description: "The path of the policy the level belongs to; left out, the policy's default path" },
    position: { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, maximum: 2_147_483_647, sortable: true, description: 'Position of the escalation policy level; omitted, last' },
    delay: { type: 'integer', default: 0, minimum: 0, maximum: 2_147_483_647, description: 'Delay in minutes before notifying targets in the next escalation level' },
    notification_target_params: {
      type: 'array',
      required: true,
      description: "Escalation level's notification targets",
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', required: true, description: 'The ID of notification target: a user, team, schedule or service of the organization, or a channel id' },
          type: { type: 'string', enum: Object.keys(TARGETS), required: true, description: 'The type of the notification target' },
          team_members: { type: 'string', enum: ['all', 'admins', 'escalate'], nullable: true, description: 'For team targets: notify admins, all team members, or escalate to the team EP' },
        },
      },
    },
    paging_strategy_configuration_strategy: { type: 'string', enum: ['default', 'random', 'cycle', 'alert'], nullable: true, default: 'default', description: 'How the targets are paged' },
    paging_strategy_configuration_schedule_strategy: { type: 'string', enum: ['on_call_only', 'everyone'], nullable: true, default: 'on_call_only', description: "Who of a schedule target is paged: who is on call, or everyone" },
  },
});

/** Strategies the reference accepts as null but always answers with a value: null stores the default. */
const NULL_IS_DEFAULT: Row = { paging_strategy_configuration_strategy: 'default', paging_strategy_configuration_schedule_strategy: 'on_call_only' };

/** A level's path is a path of its policy; left out on create, the policy's default path (or none). */
async function onPath(ctx: WriteContext, changes: Row, policyId: string, creating: boolean): Promise<Row> {
  if (creating && changes.escalation_policy_path_id === undefined) {
    const rows = (await ctx.manager.query(`SELECT id::text FROM escalation_paths WHERE organization_id = $1 AND escalation_policy_id = $2 AND "default" ORDER BY position, created_at LIMIT 1`, [ctx.organizationId, policyId])) as { id: string }[];
    return { ...changes, escalation_policy_path_id: rows[0]?.id ?? null };
  }
  return checkReferenced(ctx, changes, { escalation_policy_path_id: pathOfPolicy(policyId) });
}

/** Targets name records of the organization by their type (422 naming `notification_target_params/<i>/id`); a null target is none. */
async function targeted(ctx: WriteContext, changes: Row): Promise<Row> {
  const settled = { ...changes };
  for (const [name, fallback] of Object.entries(NULL_IS_DEFAULT)) if (name in settled && settled[name] === null) settled[name] = fallback;
  if (!Array.isArray(settled.notification_target_params)) return settled;
  const targets = (settled.notification_target_params as (Row | null)[]).filter((target): target is Row => target !== null);
  settled.notification_target_params = targets;
  const named = targets.flatMap((target, i) => (TARGETS[target.type as string] ? [[`notification_target_params/${i}/id`, target.id, TARGETS[target.type as string]!] as const] : []));
  await checkReferenced(ctx, Object.fromEntries(named.map(([pointer, id]) => [pointer, id])), Object.fromEntries(named.map(([pointer, , reference]) => [pointer, reference])));
  return settled;
}

export const escalationLevelDefinition: ResourceDefinition = {
  schema: escalationLevelSchema,
  context: 'on-call',
  table: 'escalation_levels',
  permission: PART_OF_POLICY,
  rules: {
    beforeCreate: async (attributes, ctx) => onPath(ctx, await targeted(ctx, attributes), attributes.escalation_policy_id as string, true),
    beforeUpdate: async (current, changes, ctx) => onPath(ctx, await targeted(ctx, changes), current.escalation_policy_id as string, false),
  },
};
