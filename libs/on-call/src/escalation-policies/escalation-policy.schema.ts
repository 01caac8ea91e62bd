import { catalogRecordsOf } from '@taproot/catalog';
import { teamRecords } from '@taproot/identity';
import { byIdAttribute, byQuery, defineIncludes, defineResource, type FilterOperator, type ResourceSchema } from '@taproot/json-api';
import { checkReferenced, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { escalationLevelDefinition, escalationLevelSchema } from '../escalation-levels/escalation-level.schema';
import { escalationPathDefinition, escalationPathSchema } from '../escalation-paths/escalation-path.schema';
import { SERVICES, TEAMS } from '../shared/references';
import { refuse, timeOfDayIssue, timeZoneIssues, type Issue } from '../shared/times';
import { teamPolicyCapIssues } from './team-policy-cap';

/** The reference's business days: S M T W R F U, as rotations name them. */
const BUSINESS_DAYS = ['M', 'T', 'W', 'R', 'F', 'U', 'S'] as const;
const EQUALITY: readonly FilterOperator[] = ['eq', 'not_eq', 'in', 'not_in'];

/**
 * An escalation policy (reference: `escalation_policy`): who is paged, in which order, when an
 * alert reaches the teams (`group_ids`) or services that use it. Its paths and levels live under it
 * (docs/escalation-policies.md).
 */
export const escalationPolicySchema = defineResource({
  type: 'escalation_policies',
  singular: 'escalation_policy',
  plural: 'escalation_policies',
  path: '/v1/escalation_policies',
  readTable: 'escalation_policies_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // The reference's include enum (listEscalationPolicies, getEscalationPolicy), linked under the same names.
  relationships: {
    escalation_policy_levels: { type: 'escalation_levels', many: true },
    escalation_policy_paths: { type: 'escalation_paths', many: true },
    groups: { type: 'groups', many: true, idAttribute: 'group_ids' },
    services: { type: 'services', many: true, idAttribute: 'service_ids' },
  },
  // The reference's filter[team_ids]: the teams using the policy, stored as group_ids.
  listFilters: {
    team_ids: { type: 'array', items: { type: 'string' }, column: 'group_ids', filter: EQUALITY, description: 'Team IDs: policies used by any of them (eq, in) or by none of them (not_eq, not_in)' },
  },
  extraFilters: { team_ids: { description: 'Team IDs (group_ids): any of them; takes [eq], [not_eq], [in], [not_in]' } },
  attributes: {
    name: { type: 'string', required: true, minLength: 1, maxLength: 255, filter: EQUALITY, sortable: true, searchable: true, description: 'The name of the escalation policy' },
    description: { type: 'string', nullable: true, searchable: true, description: 'The description of the escalation policy' },
    repeat_count: { type: 'integer', default: 0, minimum: 0, maximum: 2_147_483_647, description: 'The number of times this policy will be executed until someone acknowledges the alert' },
    group_ids: { type: 'array', items: { type: 'string' }, default: [], description: 'Associated teams (alerting the team will trigger escalation policy)' },
    service_ids: { type: 'array', items: { type: 'string' }, default: [], description: 'Associated services (alerting the service will trigger escalation policy)' },
    business_hours: {
      type: 'object',
      nullable: true,
      description: 'Business hours of the policy: days, start and end time (HH:MM) in a time zone',
      properties: {
        days: { type: 'array', nullable: true, items: { type: 'string', enum: BUSINESS_DAYS }, description: 'Business days' },
        start_time: { type: 'string', nullable: true, description: 'Start time for business hours (HH:MM)' },
        end_time: { type: 'string', nullable: true, description: 'End time for business hours (HH:MM)' },
        time_zone: { type: 'string', nullable: true, description: 'Time zone of the business hours: an IANA or a Rails name, answered as sent' },
      },
    },
    created_by_user_id: { type: 'integer', nullable: true, writable: false, filter: ['eq', 'in'], description: 'User who created the escalation policy; null for a key without a user' },
    last_updated_by_user_id: { type: 'integer', nullable: true, writable: false, description: 'User who last changed the escalation policy; null for a key without a user' },
  },
});

/** Business hours' times of day and time zone, each refusal naming its pointer. */
function businessHoursIssues(hours: unknown): Issue[] {
  if (hours == null) return [];
  const row = hours as Row;
  const times = ['start_time', 'end_time'].filter((end) => row[end] != null).map((end) => timeOfDayIssue(`business_hours/${end}`, row[end]));
  const zone = timeZoneIssues(row, ['time_zone']).map((issue) => ({ ...issue, attribute: `business_hours/${issue.attribute}` }));
  return [...times.filter((issue): issue is Issue => issue !== null), ...zone];
}

const USED_BY = { group_ids: TEAMS, service_ids: SERVICES };
const actingUser = (ctx: WriteContext) => (ctx.userId == null ? null : Number(ctx.userId));

/** A policy's records of a kind (its levels, its paths), in its own lists' order. */
const ofPolicy = (schema: ResourceSchema) =>
  byQuery(
    schema,
    `SELECT escalation_policy_id AS owner_id, * FROM ${schema.readTable} WHERE organization_id = $1 AND escalation_policy_id = ANY($2::uuid[]) ORDER BY position, created_at, id`,
  );

export const escalationPolicyDefinition: ResourceDefinition = {
  schema: escalationPolicySchema,
  context: 'on-call',
  table: 'escalation_policies',
  // Teams own policies through group_ids: their team keys edit them (spec, API keys).
  teamOwnership: { column: 'group_ids' },
  // Deleting a policy deletes its levels, then its paths, each with its own event.
  children: () => [escalationLevelDefinition, escalationPathDefinition],
  includes: defineIncludes(escalationPolicySchema, {
    escalation_policy_levels: ofPolicy(escalationLevelSchema),
    escalation_policy_paths: ofPolicy(escalationPathSchema),
    groups: byIdAttribute('group_ids', teamRecords),
    services: byIdAttribute('service_ids', catalogRecordsOf('services')),
  }),
  rules: {
    beforeCreate: async (attributes, ctx) => {
      refuse(businessHoursIssues(attributes.business_hours));
      const by = actingUser(ctx);
      const checked = await checkReferenced(ctx, { ...attributes, created_by_user_id: by, last_updated_by_user_id: by }, USED_BY);
      refuse(await teamPolicyCapIssues(ctx, checked.group_ids));
      return checked;
    },
    beforeUpdate: async (current, changes, ctx) => {
      refuse(businessHoursIssues(changes.business_hours));
      const checked = await checkReferenced(ctx, { ...changes, last_updated_by_user_id: actingUser(ctx) }, USED_BY);
      // Only teams the update adds take a place: a policy keeps the teams it has.
      refuse(await teamPolicyCapIssues(ctx, checked.group_ids, (current.group_ids as string[] | undefined) ?? []));
      return checked;
    },
  },
};
