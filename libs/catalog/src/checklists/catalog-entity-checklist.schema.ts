import { defineResource, type AttributeDef } from '@taproot/json-api';

/** Records made by a trigger, never written by a client: every attribute is output-only. */
const out = (def: AttributeDef): AttributeDef => ({ ...def, writable: false });

/**
 * A checklist of one record a template audits (docs/catalog-checklists.md), made by
 * `POST /v1/catalog_checklist_templates/{id}/trigger`: the template's fields to check, each
 * unchecked, and its owners. Read only (list, get); deleted with its template.
 */
export const catalogEntityChecklistSchema = defineResource({
  type: 'catalog_entity_checklists',
  singular: 'catalog_entity_checklist',
  path: '/v1/catalog_entity_checklists',
  readTable: 'catalog_entity_checklists_read',
  defaultSort: 'created_at',
  operations: ['list', 'get'],
  attributes: {
    catalog_checklist_template_id: out({ type: 'string', format: 'uuid', filter: ['eq'], description: 'The ID of the checklist template' }),
    auditable_type: out({ type: 'string', enum: ['Service', 'Functionality', 'Environment', 'Group', 'Cause', 'IncidentType', 'CatalogEntity'], filter: ['eq'], description: 'The type of the auditable entity' }),
    auditable_id: out({ type: 'string', filter: ['eq'], description: 'The ID of the auditable entity' }),
    status: out({ type: 'string', enum: ['triggered', 'in_progress', 'completed', 'cancelled'], filter: ['eq'], description: 'The status of the checklist' }),
    started_at: out({ type: 'date-time', nullable: true, description: 'When the checklist was started' }),
    completed_at: out({ type: 'date-time', nullable: true, description: 'When the checklist was completed' }),
    completed_by_user_id: out({ type: 'string', nullable: true, description: 'The ID of the user who completed the checklist' }),
    checklist_fields: out({ type: 'array', nullable: true, items: { type: 'object' }, description: 'Checklist fields: one catalog_entity_checklist_fields resource object per template field' }),
    checklist_owners: out({ type: 'array', nullable: true, items: { type: 'object' }, description: 'Checklist owners: one catalog_entity_checklist_owners resource object per owner user' }),
  },
});
