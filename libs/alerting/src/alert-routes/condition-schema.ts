import type { AttributeDef, ItemDef } from '@taproot/json-api';
import { ROUTE_CONDITION_TYPES, ROUTE_FIELD_TYPES } from './route-alert';

// Optional texts: "" is no value (the Terraform provider sends "" for every member left unset).
const text = (description: string, nullable = true): AttributeDef => ({ type: 'string', ...(nullable ? { nullable } : {}), blankAsUnset: true, description });
const texts = (description: string): AttributeDef => ({ type: 'array', nullable: true, items: { type: 'string' }, description });

export interface ConditionItemOptions {
  /** The field types and operators the resource takes (all the routes' by default). */
  fieldTypes?: readonly string[];
  operators?: readonly string[];
  /** The members the resource declares (every route condition member by default); others are refused. */
  members?: readonly string[];
  /** Whether `property_field_name` may be null (a route's condition on urgency or an alert field has none). */
  nameNullable?: boolean;
  /** Members of the resource's own. */
  extra?: Record<string, AttributeDef>;
}

/**
 * The declared shape of a condition, as alert routes, alert routing rules and alert groups take it
 * (the reference's condition of each, one vocabulary): what the generic validator checks before
 * route-rules.ts `normalizeCondition` does the rest.
 */
export function conditionItem(options: ConditionItemOptions = {}): ItemDef {
  const all: Record<string, AttributeDef> = {
    property_field_type: { type: 'string', enum: options.fieldTypes ?? ROUTE_FIELD_TYPES, description: 'What the condition reads (decided when left out)' },
    property_field_name: text('An attribute (summary, description, alert_urgency, external_url, ...) or a JSON Path into the payload', options.nameNullable ?? false),
    property_field_condition_type: { type: 'string', enum: options.operators ?? ROUTE_CONDITION_TYPES, description: 'The comparison (is_one_of when left out)' },
    property_field_value: text('A value to compare with'),
    property_field_values: texts('Values to compare with'),
    alert_urgency_ids: texts('The alert urgencies the alert must have'),
    conditionable_type: { type: 'string', enum: ['AlertField'], nullable: true, blankAsUnset: true, description: 'AlertField for an alert field condition' },
    conditionable_id: text('The alert field of an alert field condition'),
  };
  const members = options.members ?? Object.keys(all);
  return { type: 'object', properties: { ...Object.fromEntries(members.map((m) => [m, all[m]])), ...options.extra } };
}
