import { BULK_FIELDS, fieldsIntoProperties } from '../catalog-properties/bulk-fields';
import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { catalogProperties, ids, linkedToolIds, managedBy, namedAndOrdered, owners, text, uptime } from '../shared/catalog-attributes';
import { emails, slackAliases, slackChannels } from '../shared/slack-attributes';

export const functionalitySchema = defineResource({
  type: 'functionalities',
  singular: 'functionality',
  path: '/v1/functionalities',
  readTable: 'functionalities_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  bulk: true,
  bulkItemMembers: BULK_FIELDS,
  attributes: {
    ...namedAndOrdered('functionality'),
    external_id: text('The external id associated to this functionality', { filter: true }),
    managed_by: managedBy('functionality'),
    color: text('The hex color of the functionality'),
    notify_emails: emails('Emails attached to the functionality'),
    escalation_policy_id: text('The escalation policy id of the functionality'),
    // Includes opslevel_id, which the reference's list filters on although its schemas omit it.
    ...linkedToolIds('functionality'),
    opsgenie_team_id: text('The Opsgenie team id associated to this functionality'),
    ...uptime,
    environment_ids: ids('Environments associated with this functionality'),
    service_ids: ids('Services associated with this functionality'),
    ...owners('functionality'),
    properties: catalogProperties('functionality'),
    slack_aliases: slackAliases,
    slack_channels: slackChannels,
  },
});

export const functionalityDefinition: ResourceDefinition = {
  schema: functionalitySchema,
  bulkInput: fieldsIntoProperties('functionality'),
  context: 'catalog',
  table: 'functionalities',
  // Teams own functionalities through owner_group_ids: their team keys edit them (spec, API keys).
  teamOwnership: { column: 'owner_group_ids' },
};
