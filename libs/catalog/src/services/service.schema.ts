import { BULK_FIELDS, fieldsIntoProperties } from '../catalog-properties/bulk-fields';
import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { catalogProperties, ids, linkedToolIds, managedBy, namedAndOrdered, owners, text, uptime } from '../shared/catalog-attributes';
import { emails, slackAliases, slackChannel, slackChannels } from '../shared/slack-attributes';

export const serviceSchema = defineResource({
  type: 'services',
  singular: 'service',
  path: '/v1/services',
  readTable: 'services_read',
  defaultSort: 'position',
  // Cursor pagination is switched on here too: large catalogs are synced by tools page by page.
  cursor: true,
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // Catalog syncs (Backstage, Terraform) upsert and prune services by external_id.
  bulk: true,
  bulkItemMembers: BULK_FIELDS,
  attributes: {
    ...namedAndOrdered('service'),
    external_id: text('The external id associated to this service', { filter: true }),
    managed_by: managedBy('service'),
    color: text('The hex color of the service'),
    notify_emails: emails('Emails attached to the service'),
    alert_urgency_id: text('The alert urgency id of the service'),
    escalation_policy_id: text('The escalation policy id of the service'),
    alerts_email_enabled: { type: 'boolean', nullable: true, description: 'Enable alerts through email' },
    alerts_email_address: text('Email generated to send alerts to', { writable: false }),
    alert_broadcast_enabled: { type: 'boolean', nullable: true, filter: true, description: 'Enable alerts to be broadcasted to a specific channel' },
    alert_broadcast_channel: slackChannel('Slack channel to broadcast alerts to'),
    incident_broadcast_enabled: { type: 'boolean', nullable: true, filter: true, description: 'Enable incidents to be broadcasted to a specific channel' },
    incident_broadcast_channel: slackChannel('Slack channel to broadcast incidents to'),
    ...linkedToolIds('service'),
    opsgenie_team_id: text('The Opsgenie team id associated to this service', { writable: 'create' }),
    github_repository_name: text('The GitHub repository name associated to this service'),
    github_repository_branch: text('The GitHub repository branch associated to this service'),
    gitlab_repository_name: text('The GitLab repository name associated to this service'),
    gitlab_repository_branch: text('The GitLab repository branch associated to this service'),
    kubernetes_deployment_name: text('The Kubernetes deployment name associated to this service'),
    ...uptime,
    environment_ids: ids('Environments associated with this service'),
    service_ids: ids('Services dependent on this service'),
    ...owners('service'),
    properties: catalogProperties('service'),
    slack_aliases: slackAliases,
    slack_channels: slackChannels,
  },
});

export const serviceDefinition: ResourceDefinition = {
  schema: serviceSchema,
  bulkInput: fieldsIntoProperties('service'),
  context: 'catalog',
  table: 'services',
  // Teams own services through owner_group_ids: their team keys edit them (spec, API keys).
  teamOwnership: { column: 'owner_group_ids' },
};
