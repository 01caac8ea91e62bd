import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';

const EQUALITY = ['eq', 'not_eq', 'in', 'not_in'] as const;

/**
 * A component status (reference `status`; docs/status-pages.md): the organization's built-in set
 * (statuses/built-in-statuses.ts), read-only. Components name theirs by slug.
 */
export const statusSchema = defineResource({
  type: 'statuses',
  singular: 'status',
  plural: 'statuses',
  path: '/v1/statuses',
  readTable: 'statuses_read',
  defaultSort: 'created_at',
  operations: ['list', 'get'],
  attributes: {
    name: { type: 'string', required: true, writable: false, filter: EQUALITY, description: 'The name of the status' },
    slug: { type: 'string', writable: false, filter: EQUALITY, description: 'The slug of the status: what components name' },
    color: { type: 'string', required: true, writable: false, description: 'The hex color the status is shown in' },
    description: { type: 'string', nullable: true, writable: false, description: 'What the status means' },
    enabled: { type: 'boolean', required: true, writable: false, filter: ['eq'], description: 'Whether components may take the status' },
  },
});

export const statusDefinition: ResourceDefinition = {
  schema: statusSchema,
  context: 'status-pages',
  table: 'statuses',
  // Read with the status pages they serve.
  permission: { family: 'status_pages' },
};
