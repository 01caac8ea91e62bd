import type { AttributeDef } from '@taproot/json-api';

/** Chat references shared by catalog resources, shaped as in the reference. */
const slackRef = (what: string): AttributeDef => ({
  type: 'array',
  nullable: true,
  description: `Slack ${what} associated with this record`,
  items: {
    type: 'object',
    properties: {
      id: { type: 'string', required: true, description: `Slack ${what} ID` },
      name: { type: 'string', required: true, description: `Slack ${what} name` },
    },
  },
});

export const slackChannels = slackRef('channels');
export const slackAliases = slackRef('aliases');

export const slackChannel = (description: string): AttributeDef => ({
  type: 'object',
  nullable: true,
  description,
  properties: {
    id: { type: 'string', required: true, description: 'Slack channel ID' },
    name: { type: 'string', description: 'Slack channel name' },
  },
});

export const emails = (description: string): AttributeDef => ({
  type: 'array',
  nullable: true,
  items: { type: 'string' },
  description,
});
