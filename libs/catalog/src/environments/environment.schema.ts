import { BULK_FIELDS, fieldsIntoProperties } from '../catalog-properties/bulk-fields';
import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { catalogProperties, managedBy, namedAndOrdered, text } from '../shared/catalog-attributes';
import { emails, slackAliases, slackChannels } from '../shared/slack-attributes';

export const environmentSchema = defineResource({
  type: 'environments',
  singular: 'environment',
  path: '/v1/environments',
  readTable: 'environments_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  bulk: true,
  bulkItemMembers: BULK_FIELDS,
  attributes: {
    ...namedAndOrdered('environment'),
    external_id: text('The external id associated to this environment'),
    managed_by: managedBy('environment'),
    color: text('The hex color of the environment', { filter: true }),
    notify_emails: emails('Emails attached to the environment'),
    properties: catalogProperties('environment'),
    slack_aliases: slackAliases,
    slack_channels: slackChannels,
  },
});

export const environmentDefinition: ResourceDefinition = {
  schema: environmentSchema,
  bulkInput: fieldsIntoProperties('environment'),
  context: 'catalog',
  table: 'environments',
};
