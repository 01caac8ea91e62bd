import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { emails, slackAliases, slackChannels } from '../shared/slack-attributes';

export const SEVERITY_LEVELS = ['critical', 'high', 'medium', 'low'] as const;

export const severitySchema = defineResource({
  type: 'severities',
  singular: 'severity',
  path: '/v1/severities',
  readTable: 'severities_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the severity' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: 'The slug of the severity' },
    description: { type: 'string', nullable: true, searchable: true, description: 'The description of the severity' },
    severity: { type: 'string', enum: SEVERITY_LEVELS, default: 'medium', filter: true, sortable: true, description: 'The severity of the severity' },
    color: { type: 'string', nullable: true, filter: true, description: 'The hex color of the severity' },
    position: { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, filter: true, sortable: true, description: 'Position of the severity' },
    notify_emails: emails('Emails to attach to the severity'),
    slack_aliases: slackAliases,
    slack_channels: slackChannels,
  },
});

export const severityDefinition: ResourceDefinition = {
  schema: severitySchema,
  context: 'catalog',
  table: 'severities',
};
