import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { catalogProperties, namedAndOrdered, text } from '../shared/catalog-attributes';
import { emails, slackAliases, slackChannels } from '../shared/slack-attributes';

export const incidentTypeSchema = defineResource({
  type: 'incident_types',
  singular: 'incident_type',
  path: '/v1/incident_types',
  readTable: 'incident_types_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    ...namedAndOrdered('incident type'),
    color: text('The hex color of the incident type', { filter: true }),
    notify_emails: emails('Emails attached to the incident type'),
    // The reference's `incident_type` never answers null here: an empty list instead.
    properties: catalogProperties('incident type', { nullable: false, default: [] }),
    slack_aliases: slackAliases,
    slack_channels: slackChannels,
  },
});

export const incidentTypeDefinition: ResourceDefinition = {
  schema: incidentTypeSchema,
  context: 'catalog',
  table: 'incident_types',
};
