import { defineResource, type AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { emails, slackAliases, slackChannel, slackChannels } from '../shared/slack-attributes';

export const MANAGED_BY = ['web', 'admin_web', 'api', 'terraform', 'pulumi', 'backstage', 'catalog_sync'] as const;

const text = (description: string, extra: Partial<AttributeDef> = {}): AttributeDef => ({
  type: 'string',
  nullable: true,
  description,
  ...extra,
});
const ids = (description: string, itemType: 'string' | 'integer' = 'string'): AttributeDef => ({
  type: 'array',
  nullable: true,
  items: { type: itemType },
  description,
});

export const serviceSchema = defineResource({
  type: 'services',
  singular: 'service',
  path: '/v1/services',
  readTable: 'services_read',
  defaultSort: 'position',
  // Cursor pagination is switched on here too: large catalogs are synced by tools page by page.
  cursor: true,
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the service' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: 'The slug of the service' },
    description: text('The description of the service', { searchable: true }),
    public_description: text('The public description of the service', { searchable: true }),
    external_id: text('The external id associated to this service', { filter: true }),
    managed_by: { type: 'string', enum: MANAGED_BY, writable: false, default: 'api', description: 'How this service is managed (provenance). Read-only.' },
    color: text('The hex color of the service'),
    position: { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, filter: true, sortable: true, description: 'Position of the service' },
    notify_emails: emails('Emails attached to the service'),
    alert_urgency_id: text('The alert urgency id of the service'),
    escalation_policy_id: text('The escalation policy id of the service'),
    alerts_email_enabled: { type: 'boolean', nullable: true, description: 'Enable alerts through email' },
    alerts_email_address: text('Email generated to send alerts to', { writable: false }),
    alert_broadcast_enabled: { type: 'boolean', nullable: true, filter: true, description: 'Enable alerts to be broadcasted to a specific channel' },
    alert_broadcast_channel: slackChannel('Slack channel to broadcast alerts to'),
    incident_broadcast_enabled: { type: 'boolean', nullable: true, filter: true, description: 'Enable incidents to be broadcasted to a specific channel' },
    incident_broadcast_channel: slackChannel('Slack channel to broadcast incidents to'),
    backstage_id: text('The Backstage entity id associated to this service', { filter: true }),
    cortex_id: text('The Cortex group id associated to this service', { filter: true }),
    opslevel_id: text('The OpsLevel entity id associated to this service', { filter: true }),
    pagerduty_id: text('The PagerDuty service id associated to this service'),
    opsgenie_id: text('The Opsgenie service id associated to this service'),
    opsgenie_team_id: text('The Opsgenie team id associated to this service', { writable: 'create' }),
    service_now_ci_sys_id: text('The Service Now CI sys id associated to this service'),
    github_repository_name: text('The GitHub repository name associated to this service'),
    github_repository_branch: text('The GitHub repository branch associated to this service'),
    gitlab_repository_name: text('The GitLab repository name associated to this service'),
    gitlab_repository_branch: text('The GitLab repository branch associated to this service'),
    kubernetes_deployment_name: text('The Kubernetes deployment name associated to this service'),
    show_uptime: { type: 'boolean', nullable: true, writable: 'create', description: 'Show uptime' },
    show_uptime_last_days: { type: 'integer', nullable: true, enum: [30, 60, 90], default: 60, writable: 'create', description: 'Show uptime over x days' },
    environment_ids: ids('Environments associated with this service'),
    service_ids: ids('Services dependent on this service'),
    owner_group_ids: ids('Owner Teams associated with this service'),
    owner_user_ids: ids('Owner Users associated with this service', 'integer'),
    properties: {
      type: 'array',
      nullable: true,
      description: 'Array of property values for this service.',
      items: {
        type: 'object',
        properties: {
          catalog_property_id: { type: 'string', required: true, description: 'Catalog property ID' },
          value: { type: 'string', required: true, description: 'The property value' },
        },
      },
    },
    slack_aliases: slackAliases,
    slack_channels: slackChannels,
  },
});

export const serviceDefinition: ResourceDefinition = {
  schema: serviceSchema,
  context: 'catalog',
  table: 'services',
};
