import { existingCatalogIds } from '@taproot/catalog';
import { byQuery, existingIds, JsonApiError, type AttributeDef, type ResourceSchema } from '@taproot/json-api';
import { checkReferenced, type Reference, type Row, type WriteContext } from '@taproot/resources';
import { IncidentsErrorCode } from '../errors';

/**
 * What a form field or custom field describes (spec: both expose `resource_type`). `problem` is the
 * hosted API's other value (its Terraform provider documents `incident` and `problem`): Taproot has
 * no problem records or forms, so such a field is stored and answered but placed on no form.
 */
export const RESOURCE_TYPES = ['incident', 'action_item', 'problem'] as const;
export type FormResourceType = (typeof RESOURCE_TYPES)[number];

/** The built-in forms of action items; every other form (built-in or custom) is an incident's. */
const ACTION_ITEM_FORMS = ['web_action_item_form', 'slack_action_item_form'] as const;

/** The reference's built-in forms (form_field_position `form`, form_set `forms`). */
export const BUILT_IN_FORMS = [
  'web_new_incident_form',
  'web_update_incident_form',
  'web_incident_post_mortem_form',
  'web_incident_mitigation_form',
  'web_incident_resolution_form',
  'web_incident_cancellation_form',
  'web_scheduled_incident_form',
  'web_update_scheduled_incident_form',
  'incident_post_mortem',
  'slack_new_incident_form',
  'slack_update_incident_form',
  'slack_update_incident_status_form',
  'slack_incident_mitigation_form',
  'slack_incident_resolution_form',
  'slack_incident_cancellation_form',
  'slack_scheduled_incident_form',
  'slack_update_scheduled_incident_form',
  ...ACTION_ITEM_FORMS,
] as const;
const OTHER_BUILT_IN_FORMS = ['google_chat_new_incident_form', 'google_chat_update_incident_form'];

export const formResourceType = (form: string): FormResourceType => ((ACTION_ITEM_FORMS as readonly string[]).includes(form) ? 'action_item' : 'incident');

export const refuse = (attribute: string, detail: string, code: string = IncidentsErrorCode.UnknownReference) => JsonApiError.invalidAttributes([{ attribute, detail, code }]);

const ofTable = (noun: string, table: string): Reference => ({ noun, code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingIds(db, table, org, ids) });
export const FORM_FIELDS = ofTable('form field', 'form_fields');
export const FORM_SETS = ofTable('form set', 'form_sets');
export const CUSTOM_FIELDS = ofTable('custom field', 'custom_fields');
export const ENVIRONMENTS: Reference = { noun: 'environment', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingCatalogIds(db, org, 'environments', ids) };
export const CAUSES: Reference = { noun: 'cause', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingCatalogIds(db, org, 'causes', ids) };
export const INCIDENT_TYPES: Reference = { noun: 'incident type', code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingCatalogIds(db, org, 'incident_types', ids) };

/** The resource type of a form field of the organization (it exists: checked before). */
export async function resourceTypeOf(ctx: WriteContext, formFieldId: unknown): Promise<FormResourceType> {
  const [row] = (await ctx.manager.query('SELECT resource_type FROM form_fields WHERE organization_id = $1 AND id = $2', [ctx.organizationId, formFieldId])) as { resource_type: FormResourceType }[];
  return row.resource_type;
}

/** Refuses, naming `attribute`, a form field of another resource type than `expected` (spec: no placement across resource types). */
export async function checkSameResourceType(ctx: WriteContext, formFieldId: unknown, expected: FormResourceType, attribute: string, what: string): Promise<void> {
  const actual = await resourceTypeOf(ctx, formFieldId);
  if (actual !== expected) throw refuse(attribute, `${attribute}: form field ${String(formFieldId)} is of resource_type ${actual}, ${what} is of ${expected}`, 'RESOURCE_TYPE_MISMATCH');
}

/** Each form is built in or the slug of a custom form of the organization. */
export async function checkForms(ctx: WriteContext, forms: unknown, attribute = 'forms'): Promise<void> {
  if (!Array.isArray(forms)) return;
  const custom = forms.filter((f) => !(BUILT_IN_FORMS as readonly string[]).includes(f) && !OTHER_BUILT_IN_FORMS.includes(f));
  if (custom.length === 0) return;
  const rows = (await ctx.manager.query('SELECT slug FROM custom_forms WHERE organization_id = $1 AND slug = ANY($2::text[])', [ctx.organizationId, custom])) as { slug: string }[];
  const found = new Set(rows.map((r) => r.slug));
  const unknown = forms.findIndex((f) => custom.includes(f) && !found.has(f));
  if (unknown >= 0) throw refuse(`${attribute}/${unknown}`, `${attribute}[${unknown}]: ${JSON.stringify(forms[unknown])} is neither a built-in form nor the slug of a custom form of this organization`);
}

/** `ids` must be options (rows of `table`) of the field `fieldId` names in `fieldColumn`. */
export async function checkOptionsOf(ctx: WriteContext, ids: unknown, option: { table: string; fieldColumn: string; fieldId: unknown }, attribute = 'selected_option_ids'): Promise<void> {
  if (!Array.isArray(ids) || ids.length === 0) return;
  const found = await existingIds(ctx.manager, option.table, ctx.organizationId, ids.map(String));
  const rows = found.size
    ? ((await ctx.manager.query(`SELECT id::text AS id FROM ${option.table} WHERE organization_id = $1 AND ${option.fieldColumn} = $2 AND id = ANY($3::uuid[])`, [ctx.organizationId, option.fieldId, [...found]])) as { id: string }[])
    : [];
  const ofField = new Set(rows.map((r) => r.id));
  const wrong = ids.findIndex((id) => !ofField.has(String(id).toLowerCase()));
  if (wrong >= 0) throw refuse(`${attribute}/${wrong}`, `${attribute}[${wrong}]: ${String(ids[wrong])} is not an option of field ${String(option.fieldId)}`);
}

/** The records `references` names must be of the organization; on update, only those changed. */
export const referencesChecked = (references: Record<string, Reference>) => ({
  beforeCreate: (attributes: Row, ctx: WriteContext) => checkReferenced(ctx, attributes, references),
  beforeUpdate: (_current: Row, changes: Row, ctx: WriteContext) => checkReferenced(ctx, changes, references),
});

/** Attributes several form resources share. */
export const position = (noun: string, extra: Partial<AttributeDef> = {}): AttributeDef => ({
  type: 'integer',
  nullable: true,
  alwaysStored: true,
  minimum: 0,
  filter: true,
  sortable: true,
  description: `The position of the ${noun}`,
  ...extra,
});
export const strings = (description: string, extra: Partial<AttributeDef> = {}): AttributeDef => ({ type: 'array', items: { type: 'string' }, default: [], description, ...extra });
export const resourceType = (noun: string): AttributeDef => ({
  type: 'string',
  enum: RESOURCE_TYPES,
  default: 'incident',
  writable: 'create',
  filter: ['eq', 'not_eq', 'in', 'not_in'],
  description: `What the ${noun} describes: an incident or an action item (spec: custom fields and form fields expose resource_type). Set on create.`,
});
export const EQUALITY = ['eq', 'not_eq', 'in', 'not_in'] as const;


/** Rules running `check` on the record as it will be: on create, and on an update changing one of `watched`. */
export const checkedOnWrite = (check: (record: Row, ctx: WriteContext) => Promise<void>, watched: readonly string[]) => ({
  async beforeCreate(attributes: Row, ctx: WriteContext): Promise<Row> {
    await check(attributes, ctx);
    return attributes;
  },
  async beforeUpdate(current: Row, changes: Row, ctx: WriteContext): Promise<Row> {
    if (watched.some((name) => changes[name] !== undefined)) await check({ ...current, ...changes }, ctx);
    return changes;
  },
});

/** `include` of a field's records (its options, its positions), in their lists' order. */
export const ofField = (schema: ResourceSchema, column: string) =>
  byQuery(schema, `SELECT ${column} AS owner_id, * FROM ${schema.readTable} WHERE organization_id = $1 AND ${column} = ANY($2::uuid[]) ORDER BY position, created_at, id`);
