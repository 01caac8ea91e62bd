import { JsonApiError } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { WorkflowsErrorCode } from '../errors';

/** The field and options a condition names, as the incidents context's ports answer for them. */
export interface FieldPorts {
  /** "an incident form field", "a custom field": how a refusal names what was expected. */
  noun: string;
  /** The field's attribute, e.g. `form_field_id`. */
  attribute: string;
  existing(ctx: WriteContext, id: string): Promise<boolean>;
  options(ctx: WriteContext, fieldId: string, ids: readonly string[]): Promise<Set<string>>;
}

const refuse = (pointer: string, detail: string) => JsonApiError.invalidAttributes([{ attribute: pointer, detail, code: WorkflowsErrorCode.UnknownReference }]);

/** The condition's field is of the organization, and its selected options are that field's. */
async function checkField(condition: Row, ctx: WriteContext, ports: FieldPorts): Promise<void> {
  const fieldId = String(condition[ports.attribute]);
  if (!(await ports.existing(ctx, fieldId))) throw refuse(ports.attribute, `${ports.attribute}: ${fieldId} is not ${ports.noun} of this organization`);
  const ids = (condition.selected_option_ids as unknown[] | undefined) ?? [];
  if (ids.length === 0) return;
  const found = await ports.options(ctx, fieldId, ids.map((id) => String(id).toLowerCase()));
  const wrong = ids.findIndex((id) => !found.has(String(id).toLowerCase()));
  if (wrong >= 0) throw refuse(`selected_option_ids/${wrong}`, `selected_option_ids[${wrong}]: ${String(ids[wrong])} is not an option of ${ports.attribute} ${fieldId}`);
}

/** Rules checking the condition as it will be: on create, and on an update changing its options. */
export const fieldChecked = (ports: FieldPorts): NonNullable<ResourceDefinition['rules']> => ({
  async beforeCreate(attributes, ctx) {
    await checkField(attributes, ctx, ports);
    return attributes;
  },
  async beforeUpdate(current, changes, ctx) {
    if (changes.selected_option_ids !== undefined) await checkField({ ...current, ...changes }, ctx, ports);
    return changes;
  },
});
