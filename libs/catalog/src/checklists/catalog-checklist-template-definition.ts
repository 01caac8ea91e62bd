import { existingTeamIds, existingUserIds } from '@taproot/identity';
import { defineIncludes, existingIds, isUuid, JsonApiError } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { CHECKLIST_KINDS } from './catalog-checklist-kinds';
import { catalogChecklistTemplateSchema, type ChecklistCatalogType } from './catalog-checklist-template.schema';
import { catalogEntityChecklistDefinition } from './catalog-entity-checklist-definition';

type Issue = { attribute: string; detail: string; code: string };
export interface TemplateField {
  field_source: 'builtin' | 'custom';
  field_key: string;
  catalog_property_id: string | null;
}
export interface TemplateOwner {
  id: string;
  type: 'field' | 'user';
}

/** What a create must hold together: a custom catalog is audited by catalog scope, and the scope names a record of the organization. */
async function scopeIssues(template: Row, ctx: WriteContext): Promise<Issue[]> {
  const custom = template.catalog_type === 'Catalog';
  if (custom !== (template.scope_type === 'Catalog')) {
    return [{ attribute: 'scope_type', detail: `scope_type must be Catalog exactly when catalog_type is Catalog (got catalog_type ${String(template.catalog_type)}, scope_type ${String(template.scope_type)})`, code: 'INVALID_SCOPE' }];
  }
  const id = template.scope_id == null || template.scope_id === '' ? null : String(template.scope_id);
  if (id === null) return custom ? [{ attribute: 'scope_id', detail: 'scope_id is required with scope_type Catalog: the catalog whose entities are audited', code: 'REQUIRED' }] : [];
  const found = custom ? await existingIds(ctx.manager, 'catalogs', ctx.organizationId, [id]) : await existingTeamIds(ctx.manager, ctx.organizationId, [id]);
  return found.size ? [] : [{ attribute: 'scope_id', detail: `scope_id: ${id} is not a ${custom ? 'catalog' : 'team'} of this organization`, code: 'UNKNOWN_REFERENCE' }];
}

/**
 * The fields as stored: a builtin one names an attribute of the audited records; a custom one a
 * catalog property of the audited kind (of the scope's catalog for a custom catalog), whose slug
 * is its key. A key appears once.
 */
async function checkedFields(fields: Row[], template: Row, ctx: WriteContext, issues: Issue[]): Promise<TemplateField[]> {
  const kind = CHECKLIST_KINDS[template.catalog_type as ChecklistCatalogType];
  const propertyIds = fields.map((f) => f.catalog_property_id).filter((id): id is string => typeof id === 'string' && isUuid(id));
  const properties = propertyIds.length
    ? ((await ctx.manager.query('SELECT id::text AS id, slug, catalog_type, catalog_id::text AS catalog_id FROM catalog_properties WHERE organization_id = $1 AND id = ANY($2::uuid[])', [
        ctx.organizationId,
        propertyIds.map((id) => id.toLowerCase()),
      ])) as { id: string; slug: string; catalog_type: string; catalog_id: string | null }[])
    : [];
  const checked: TemplateField[] = [];
  for (const [i, field] of fields.entries()) {
    const at = (member: string) => `fields/${i}/${member}`;
    if (field.field_source === 'custom') {
      const property = properties.find((p) => p.id === String(field.catalog_property_id ?? '').toLowerCase());
      const ofKind = property && property.catalog_type === kind.property && (kind.property !== 'catalog' || property.catalog_id === template.scope_id);
      if (!ofKind) {
        issues.push({ attribute: at('catalog_property_id'), detail: `fields[${i}].catalog_property_id: ${String(field.catalog_property_id ?? '(none)')} is not a catalog property of this template's ${kind.property === 'catalog' ? 'catalog' : kind.auditable} records`, code: 'UNKNOWN_REFERENCE' });
        continue;
      }
      checked.push({ field_source: 'custom', field_key: property.slug, catalog_property_id: property.id });
    } else if (field.field_source === 'builtin') {
      const key = typeof field.field_key === 'string' ? field.field_key : '';
      if (!Object.hasOwn(kind.schema.attributes, key)) {
        issues.push({ attribute: at('field_key'), detail: `fields[${i}].field_key: ${JSON.stringify(key)} is not an attribute of ${kind.schema.type}`, code: 'UNKNOWN_FIELD' });
        continue;
      }
      checked.push({ field_source: 'builtin', field_key: key, catalog_property_id: null });
    } else {
      issues.push({ attribute: at('field_source'), detail: `fields[${i}].field_source is required: builtin or custom`, code: 'REQUIRED' });
      continue;
    }
    const key = checked.at(-1)!.field_key;
    if (checked.slice(0, -1).some((f) => f.field_key === key)) {
      checked.pop();
      issues.push({ attribute: `fields/${i}`, detail: `fields[${i}]: the field ${key} is listed twice`, code: 'TAKEN' });
    }
  }
  return checked;
}

/** The owners as stored: users of the organization, and attributes of the audited records that name users; each once. */
async function checkedOwners(owners: Row[], template: Row, ctx: WriteContext, issues: Issue[]): Promise<TemplateOwner[]> {
  const kind = CHECKLIST_KINDS[template.catalog_type as ChecklistCatalogType];
  const users = await existingUserIds(ctx.manager, ctx.organizationId, owners.filter((o) => o.type === 'user').map((o) => String(o.id ?? '')));
  const checked: TemplateOwner[] = [];
  for (const [i, owner] of owners.entries()) {
    const id = String(owner.id ?? '');
    if (owner.type !== 'user' && owner.type !== 'field') issues.push({ attribute: `owners/${i}/type`, detail: `owners[${i}].type is required: field or user`, code: 'REQUIRED' });
    else if (owner.type === 'user' && !users.has(id)) issues.push({ attribute: `owners/${i}/id`, detail: `owners[${i}].id: ${id} is not a user of this organization`, code: 'UNKNOWN_REFERENCE' });
    else if (owner.type === 'field' && !Object.hasOwn(kind.schema.attributes, id)) issues.push({ attribute: `owners/${i}/id`, detail: `owners[${i}].id: ${JSON.stringify(id)} is not an attribute of ${kind.schema.type}`, code: 'UNKNOWN_FIELD' });
    else if (!checked.some((o) => o.type === owner.type && o.id === id)) checked.push({ id, type: owner.type });
  }
  return checked;
}

/** `changes` checked against the template they make (`current` and them): one 422 naming every problem. */
async function checkedTemplate(changes: Row, ctx: WriteContext, current?: Row): Promise<Row> {
  const template = { ...current, ...changes };
  const issues: Issue[] = current ? [] : await scopeIssues(template, ctx);
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
  const checked = { ...changes };
  if (!current) checked.scope_id = template.scope_id === '' ? null : (template.scope_id ?? null);
  if ('fields' in changes) checked.fields = await checkedFields((changes.fields as Row[] | null) ?? [], template, ctx, issues);
  if ('owners' in changes) checked.owners = await checkedOwners((changes.owners as Row[] | null) ?? [], template, ctx, issues);
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
  return checked;
}

/**
 * A catalog checklist template (declared in catalog-checklist-template.schema.ts), read and
 * written with the catalogs permissions. Deleting one deletes its checklists, each with its event.
 */
export const catalogChecklistTemplateDefinition: ResourceDefinition = {
  schema: catalogChecklistTemplateSchema,
  context: 'catalog',
  table: 'catalog_checklist_templates',
  permission: { family: 'catalogs' },
  includes: defineIncludes(catalogChecklistTemplateSchema, {}),
  children: () => [{ definition: catalogEntityChecklistDefinition, attribute: 'catalog_checklist_template_id' }],
  rules: {
    beforeCreate: (attributes, ctx) => checkedTemplate(attributes, ctx),
    beforeUpdate: (current, changes, ctx) => checkedTemplate(changes, ctx, current),
  },
};
