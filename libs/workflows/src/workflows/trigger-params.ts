import { JsonApiError } from '@taproot/json-api';
import { WorkflowsErrorCode } from '../errors';
import { TRIGGER_ENUMS, TRIGGER_TYPED, type TypedMember } from './trigger-enums';

export const TRIGGER_TYPES = Object.keys(TRIGGER_ENUMS);

/** What a workflow without trigger_params gets: run only when asked (a run created through the API). */
export const DEFAULT_TRIGGER_PARAMS = { trigger_type: 'simple', triggers: [] };

const refuse = (pointer: string, detail: string) => JsonApiError.invalidAttributes([{ attribute: pointer, detail, code: WorkflowsErrorCode.InvalidValue }]);

/**
 * A workflow's `trigger_params` (the reference's oneOf, told apart by `trigger_type`) as stored:
 * without its unset members (`withoutUnsetMembers`), the type one of the reference's, each member
 * it enumerates holding one of its values and each member it types holding that type, so the
 * answer matches the reference's variant. Other members are stored as given (the reference's
 * variants are open objects).
 */
export function checkedTriggerParams(sent: unknown): Record<string, unknown> {
  const params = withoutUnsetMembers(sent as Record<string, unknown>);
  const type = params.trigger_type;
  const enums = typeof type === 'string' && Object.hasOwn(TRIGGER_ENUMS, type) ? TRIGGER_ENUMS[type] : undefined;
  if (!enums) throw refuse('trigger_params/trigger_type', `trigger_params.trigger_type must be one of ${TRIGGER_TYPES.join(', ')} (got ${JSON.stringify(type ?? null)})`);
  for (const [name, member] of Object.entries(enums)) {
    const value = params[name];
    if (value === undefined || (value === null && member.nullable)) continue;
    const items = member.array ? value : [value];
    const wrong = Array.isArray(items) ? items.find((v) => !member.values.includes(v as string)) : value;
    if (wrong !== undefined) throw refuse(`trigger_params/${name}`, `trigger_params.${name} of a ${type} trigger must be ${member.array ? 'a list of ' : ''}one of ${member.values.join(', ')} (got ${JSON.stringify(wrong)})`);
  }
  for (const [name, member] of Object.entries(TRIGGER_TYPED[type as string])) {
    const value = params[name];
    if (value === undefined || (value === null && member.nullable) || holds(member, value)) continue;
    throw refuse(`trigger_params/${name}`, `trigger_params.${name} of a ${type} trigger must be ${member.array ? `a list of ${member.type}s` : `a ${member.type}`} (got ${JSON.stringify(value)})`);
  }
  return params;
}

/**
 * The hosted API's Terraform provider sends every member of its trigger block, unset ones as ""
 * (strings) and [] (the alert payload conditions block). Where neither can be a value (a single
 * enumerated member; an object member) they are taken as not sent: a copy without them (the
 * parsed payload stays as the client sent it).
 */
function withoutUnsetMembers(params: Record<string, unknown>): Record<string, unknown> {
  const type = params.trigger_type;
  if (typeof type !== 'string' || !Object.hasOwn(TRIGGER_ENUMS, type)) return params;
  const unset = new Set([
    ...Object.entries(TRIGGER_ENUMS[type]).flatMap(([name, member]) => (!member.array && params[name] === '' && !member.values.includes('') ? [name] : [])),
    ...Object.entries(TRIGGER_TYPED[type]).flatMap(([name, member]) => (member.type === 'object' && !member.array && Array.isArray(params[name]) && params[name].length === 0 ? [name] : [])),
  ]);
  return unset.size === 0 ? params : Object.fromEntries(Object.entries(params).filter(([name]) => !unset.has(name)));
}

const isType = (type: TypedMember['type'], value: unknown) => (type === 'object' ? value !== null && typeof value === 'object' && !Array.isArray(value) : typeof value === type);
const holds = (member: TypedMember, value: unknown) => (member.array ? Array.isArray(value) && value.every((item) => isType(member.type, item)) : isType(member.type, value));
