import { defineResource, type AttributeDef } from '@taproot/json-api';
import { text } from '../shared/catalog-attributes';

/** The kinds of record a template audits (the hosted API's enum), and the auditable type of their checklists. */
export const CHECKLIST_CATALOG_TYPES = ['Service', 'Functionality', 'Environment', 'Group', 'Cause', 'IncidentType', 'Catalog'] as const;
export type ChecklistCatalogType = (typeof CHECKLIST_CATALOG_TYPES)[number];

const templateField: Record<string, AttributeDef> = {
  field_source: { type: 'string', enum: ['builtin', 'custom'], description: 'Source of the field' },
  // The hosted API's Terraform provider sends every member of a block, unset ones as "".
  field_key: { type: 'string', blankAsUnset: true, nullAsUnset: true, description: "Key identifying the field: an attribute of the audited records (builtin), or the catalog property's slug (custom, derived)" },
  catalog_property_id: { type: 'string', nullable: true, blankAsUnset: true, description: 'ID of the catalog property for custom fields' },
};
const templateOwner: Record<string, AttributeDef> = {
  id: { type: 'string', integerAsText: true, description: 'User ID for user owners, or field key for field owners' },
  type: { type: 'string', enum: ['field', 'user'], description: 'Type of owner' },
};

/**
 * A catalog checklist template (docs/catalog-checklists.md): the fields to review and who reviews
 * them, for the records of one catalog type. Triggering it (`POST .../{id}/trigger`) makes a
 * checklist per record it covers (`/v1/catalog_entity_checklists`). The declaration alone; the
 * definition and its rules are in catalog-checklist-template-definition.ts.
 */
export const catalogChecklistTemplateSchema = defineResource({
  type: 'catalog_checklist_templates',
  singular: 'catalog_checklist_template',
  path: '/v1/catalog_checklist_templates',
  readTable: 'catalog_checklist_templates_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // The hosted API's include enum: there, fields and owners are records of their own; here they are the attributes.
  relationships: {
    template_fields: { type: 'catalog_checklist_template_fields', many: true, absent: true },
    template_owners: { type: 'catalog_checklist_template_owners', many: true, absent: true },
  },
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: ['eq'], sortable: true, searchable: true, description: 'The name of the checklist template' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: ['eq'], description: 'The slug of the checklist template' },
    description: text('The description of the checklist template', { searchable: true }),
    // What a template audits is fixed at create (the hosted API's update takes neither type nor scope).
    catalog_type: { type: 'string', required: true, enum: CHECKLIST_CATALOG_TYPES, writable: 'create', filter: ['eq'], description: 'The catalog type' },
    scope_type: { type: 'string', required: true, enum: ['Team', 'Catalog'], writable: 'create', filter: ['eq'], description: 'The scope type' },
    scope_id: { type: 'string', nullable: true, writable: 'create', description: 'The scope ID (team or catalog UUID): the team whose records are audited, or the catalog whose entities are' },
    fields: { type: 'array', nullable: true, default: [], items: { type: 'object', properties: templateField }, description: 'Template fields in position order' },
    owners: { type: 'array', nullable: true, default: [], items: { type: 'object', properties: templateOwner }, description: 'Template owners' },
  },
});
