import { defineResource } from '@taproot/json-api';

/** `/v1/audits` (reference `audit`): one row per change, written by the audit projection. */
export const auditSchema = defineResource({
  type: 'audits',
  singular: 'audit',
  path: '/v1/audits',
  readTable: 'audits',
  // Audit logs read newest first; the Jun 15 2026 ascending default names other resources.
  defaultSort: '-created_at',
  operations: ['list'],
  attributes: {
    event: { type: 'string', writable: false, alwaysStored: true, description: 'Describes the action that was taken (create, update, destroy, ...)' },
    item_type: { type: 'string', nullable: true, writable: false, filter: ['eq', 'not_eq', 'in', 'not_in'], sortable: true, description: 'The kind of object the action was taken on, as the reference names it; null for a kind it has no name for (item_type_display names every kind)' },
    item_type_display: { type: 'string', nullable: true, writable: false, description: 'Human-friendly name of the item type' },
    item_id: { type: 'string', nullable: true, writable: false, description: 'ID of the affected object' },
    object: { type: 'object', nullable: true, writable: false, description: 'The object after the action' },
    object_changes: { type: 'object', nullable: true, writable: false, description: 'Changed attributes as [before, after]' },
    user_id: { type: 'integer', nullable: true, writable: false, filter: ['eq', 'not_eq', 'in', 'not_in'], description: 'The user who acted (also for a personal key)' },
    user_email: { type: 'string', nullable: true, writable: false },
    user_name: { type: 'string', nullable: true, writable: false },
    api_key_id: { type: 'string', nullable: true, writable: false, filter: ['eq', 'not_eq', 'in', 'not_in'], description: 'The API key used, if any' },
    source: { type: 'string', nullable: true, writable: false, filter: ['eq', 'not_eq', 'in', 'not_in'], description: 'api or oauth' },
    ip_address: { type: 'string', nullable: true, writable: false },
    user_agent: { type: 'string', nullable: true, writable: false },
    request_id: { type: 'string', nullable: true, writable: false },
    session_id: { type: 'string', nullable: true, writable: false },
  },
});
