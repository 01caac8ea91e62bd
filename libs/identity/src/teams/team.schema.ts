import { defineResource, type AttributeDef } from '@taproot/json-api';

export const MANAGED_BY = ['web', 'admin_web', 'api', 'terraform', 'pulumi', 'backstage', 'catalog_sync'] as const;

const text = (description: string, extra: Partial<AttributeDef> = {}): AttributeDef => ({ type: 'string', nullable: true, description, ...extra });
const channel = (description: string): AttributeDef => ({
  type: 'object',
  nullable: true,
  description,
  properties: { id: { type: 'string', required: true, description: 'Slack channel ID' }, name: { type: 'string', description: 'Slack channel name' } },
});
const slackList = (description: string, what: string): AttributeDef => ({
  type: 'array',
  nullable: true,
  description,
  items: { type: 'object', properties: { id: { type: 'string', required: true, description: `Slack ${what} ID` }, name: { type: 'string', required: true, description: `Slack ${what} name` } } },
});
const userIds = (description: string): AttributeDef => ({ type: 'array', nullable: true, items: { type: 'integer' }, description });

/** Teams: `groups` in the data model and on the wire (JSON:API type), served at `/v1/teams`. */
export const teamSchema = defineResource({
  type: 'groups',
  singular: 'group',
  path: '/v1/teams',
  readTable: 'groups_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // Served by the teams controller itself (membership needs its own permission).
  bulk: true,
  // The reference's include enum (listTeams, getTeam); identity/includes.ts serves them.
  relationships: {
    users: { type: 'users', many: true, idAttribute: 'user_ids' },
    schedules: { type: 'schedules', many: true, absent: true },
    escalation_policies: { type: 'escalation_policies', many: true, absent: true },
  },
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the team' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: 'The slug of the team' },
    description: text('The description of the team', { searchable: true }),
    public_description: text('The public description of the team'),
    external_id: text('The external id associated to this team', { filter: true }),
    managed_by: { type: 'string', enum: MANAGED_BY, writable: false, default: 'api', description: 'How this team is managed (provenance). Read-only.' },
    color: text('The hex color of the team', { filter: true }),
    position: { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, sortable: true, description: 'Position of the team' },
    notify_emails: { type: 'array', nullable: true, items: { type: 'string' }, description: 'Emails to attach to the team' },
    user_ids: userIds('The user ids of the members of this team.'),
    admin_ids: userIds('The user ids of the admins of this team. These users must also be present in user_ids attribute.'),
    alert_urgency_id: text('The alert urgency id of the team'),
    alerts_email_enabled: { type: 'boolean', nullable: true, description: 'Enable alerts through email' },
    alerts_email_address: text('Email generated to send alerts to', { writable: false }),
    alert_broadcast_enabled: { type: 'boolean', nullable: true, filter: true, description: 'Enable alerts to be broadcasted to a specific channel' },
    alert_broadcast_channel: channel('Slack channel to broadcast alerts to'),
    incident_broadcast_enabled: { type: 'boolean', nullable: true, filter: true, description: 'Enable incidents to be broadcasted to a specific channel' },
    incident_broadcast_channel: channel('Slack channel to broadcast incidents to'),
    auto_add_members_when_attached: { type: 'boolean', nullable: true, description: 'Auto add members to incident channel when team is attached' },
    auto_add_members_scope: { type: 'string', nullable: true, enum: ['off', 'public_only', 'public_and_test', 'all'], description: 'Visibility-scoped auto-add behavior.' },
    backstage_id: text('The Backstage entity id associated to this team', { filter: true }),
    cortex_id: text('The Cortex group id associated to this team', { filter: true }),
    opslevel_id: text('The OpsLevel entity id associated to this team', { filter: true }),
    pagerduty_id: text('The PagerDuty group id associated to this team'),
    pagerduty_service_id: text('The PagerDuty service id associated to this team'),
    opsgenie_id: text('The Opsgenie group id associated to this team'),
    opsgenie_team_id: text('The Opsgenie team id associated to this team'),
    victor_ops_id: text('The VictorOps group id associated to this team'),
    pagertree_id: text('The PagerTree group id associated to this team'),
    service_now_ci_sys_id: text('The Service Now CI sys id associated to this team'),
    properties: {
      type: 'array',
      nullable: true,
      description: 'Array of property values for this team.',
      items: {
        type: 'object',
        properties: {
          catalog_property_id: { type: 'string', required: true, description: 'Catalog property ID' },
          value: { type: 'string', required: true, description: 'The property value' },
        },
      },
    },
    slack_channels: slackList('Slack Channels associated with this team', 'channel'),
    slack_aliases: slackList('Slack Aliases associated with this team', 'alias'),
  },
});

/** Attributes that change membership: they need the membership permission (docs/permissions.md). */
export const MEMBERSHIP_ATTRIBUTES = ['user_ids', 'admin_ids'] as const;
