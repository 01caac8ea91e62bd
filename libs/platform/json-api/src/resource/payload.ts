import Ajv, { type ErrorObject as AjvError, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { JsonApiError } from '../errors/json-api-error';
import { attributesSchema, isInputAttribute, SERVER_OWNED_ATTRIBUTES, type InputMode } from './json-schema';
import type { AttributeDef, ResourceSchema } from './resource-schema';

export type PayloadMode = InputMode;

export interface ParsedPayload {
  /** The attributes to write: only client-writable ones, validated; defaults filled on create. */
  attributes: Record<string, unknown>;
  /** Deprecation notices (a submitted derived `slug`); the HTTP layer sends them as headers. */
  warnings: string[];
}

// No coercion and no defaults: the client's JSON is validated as sent, and the validator never
// mutates it (defaults are filled below, from the declaration, after validation).
const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false, verbose: true });
addFormats(ajv, ['uuid', 'email', 'uri', 'date-time']);

const validators = new WeakMap<ResourceSchema, Partial<Record<PayloadMode, ValidateFunction>>>();

function validatorFor(schema: ResourceSchema, mode: PayloadMode): ValidateFunction {
  let byMode = validators.get(schema);
  if (!byMode) validators.set(schema, (byMode = {}));
  return (byMode[mode] ??= ajv.compile(attributesSchema(schema, mode)));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A value as its declaration takes it, in objects and arrays of objects too: ids sent as numbers
 * made text (`integerAsText`), 1 and 0 sent for a boolean made true and false (`integerAsBoolean`),
 * members sent as "" left out (`blankAsUnset`), members sent as null left out (`nullAsUnset`).
 */
function asDeclared(def: AttributeDef, value: unknown): unknown {
  if (def.integerAsText && Number.isSafeInteger(value)) return String(value);
  if (def.integerAsBoolean && (value === 1 || value === 0)) return value === 1;
  const properties = def.type === 'array' ? def.items?.properties : def.properties;
  if (!properties) return value;
  const declared = (k: string) => (Object.hasOwn(properties, k) ? properties[k] : undefined);
  const unset = (k: string, member: unknown) => (member === '' && declared(k)?.blankAsUnset) || (member === null && declared(k)?.nullAsUnset);
  const inObject = (v: unknown) =>
    isObject(v) ? Object.fromEntries(Object.entries(v).flatMap(([k, member]) => (unset(k, member) ? [] : [[k, declared(k) ? asDeclared(declared(k)!, member) : member]]))) : v;
  return def.type === 'array' ? (Array.isArray(value) ? value.map(inObject) : value) : inObject(value);
}

/** An input-only attribute (`ResourceSchema.inputOnlyAttributes`), if `name` is one. */
function inputOnlyOf(schema: ResourceSchema, name: string): AttributeDef | undefined {
  const inputs = schema.inputOnlyAttributes;
  return inputs && Object.hasOwn(inputs, name) ? inputs[name] : undefined;
}

function badBody(detail: string): JsonApiError {
  return JsonApiError.of(400, 'Invalid request body', detail, 'INVALID_REQUEST_BODY', { pointer: '' });
}

function invalidDocument(detail: string, pointer: string): JsonApiError {
  return JsonApiError.of(422, 'Invalid resource object', detail, 'INVALID_RESOURCE_OBJECT', { pointer });
}

interface Issue {
  /** Pointer below `/data/attributes/`, e.g. `slack_channels/0/id`. */
  attribute: string;
  detail: string;
  code: string;
}

const decodeSegment = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');
const encodeSegment = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** `['slack_channels', '0', 'id']` -> `slack_channels[0].id`. */
function displayPath(segments: string[]): string {
  return segments.map((s, i) => (/^\d+$/.test(s) ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function issueOf(error: AjvError): Issue {
  const segments = error.instancePath.split('/').slice(1).map(decodeSegment);
  const child = (name: string) => [...segments, name];
  let at = segments;
  let detail: string;
  let code = 'INVALID_ATTRIBUTE';
  switch (error.keyword) {
    case 'required':
      at = child(String(error.params.missingProperty));
      detail = `${displayPath(at)} is required`;
      code = 'REQUIRED_ATTRIBUTE';
      break;
    case 'additionalProperties':
      at = child(String(error.params.additionalProperty));
      detail = `${displayPath(at)} is not allowed`;
      break;
    case 'enum': {
      const allowed = (error.params.allowedValues as unknown[]).map(show).join(', ');
      detail = `${displayPath(at)} must be one of ${allowed} (got ${JSON.stringify(error.data)})`;
      break;
    }
    case 'type':
      detail = error.data === null ? `${displayPath(at)} must not be null` : `${displayPath(at)} ${error.message}`;
      break;
    default:
      detail = `${displayPath(at)} ${error.message ?? 'is invalid'}`;
  }
  return { attribute: at.map(encodeSegment).join('/'), detail, code };
}

/** One problem per location: a wrong type makes the other keywords' complaints noise. */
function issuesOf(errors: AjvError[]): Issue[] {
  const typeErrorAt = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  const seen = new Set<string>();
  const issues: Issue[] = [];
  for (const error of errors) {
    if (error.keyword !== 'type' && typeErrorAt.has(error.instancePath)) continue;
    const issue = issueOf(error);
    const key = `${issue.attribute}\u0000${issue.detail}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}

/**
 * Parses and validates a JSON:API create or update document against the resource declaration.
 *
 * - 400 `Invalid request body`: the body is not an object, or has no `data` resource object.
 * - 422: `data.type` missing or not the resource's type (JSON:API suggests 409 for a type
 *   mismatch; we answer 422 with the expected and received types, since the spec lists 422 for
 *   schema validation failures); `data.attributes` missing or not an object.
 * - Server-owned attributes (`id`, `created_at`, `updated_at`), output-only ones
 *   (`writable: false`) and create-only ones on update are dropped silently.
 * - Derived attributes (`derivedFrom`, e.g. `slug`) are dropped with a warning.
 * - Input-only attributes (`inputOnlyAttributes`) are validated and returned with the others.
 * - Undeclared attributes and schema violations: one 422 listing every problem
 *   (`UNKNOWN_ATTRIBUTE`, `REQUIRED_ATTRIBUTE`, `INVALID_ATTRIBUTE`), each with
 *   `source.pointer` `/data/attributes/...`.
 * - `data.id` is not read: the path names the record of an update, and ids are server-generated.
 */
/**
 * RFC 3339 allows offsets to ±23:59 and the year 0000; PostgreSQL takes offsets to ±15:59 and
 * no year 0. Date-times are stored as the UTC instant they name (offsets are not kept), so they
 * are normalised to it here, and an instant outside the years 0001-9999 is a 422.
 */
function storableTimes(schema: ResourceSchema, attributes: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  for (const [name, value] of Object.entries(attributes)) {
    if (schema.attributes[name]?.type !== 'date-time' || typeof value !== 'string') continue;
    const instant = new Date(value);
    const year = instant.getUTCFullYear();
    if (Number.isNaN(instant.getTime()) || year < 1 || year > 9999) {
      issues.push({ attribute: encodeSegment(name), detail: `${name} must be a date-time between the years 0001 and 9999 (got ${JSON.stringify(value)})`, code: 'INVALID_ATTRIBUTE' });
    } else {
      attributes[name] = instant.toISOString();
    }
  }
  return issues;
}

/** The attributes a body of the reference's other request forms sends (`{"action": {...}}`, the bare attributes); undefined for a document. */
function otherFormAttributes(schema: ResourceSchema, raw: unknown): Record<string, unknown> | undefined {
  if (!isObject(raw) || 'data' in raw) return undefined;
  if (schema.requestEnvelope) {
    const enveloped = raw[schema.requestEnvelope];
    return isObject(enveloped) ? enveloped : undefined;
  }
  return schema.bareRequest ? raw : undefined;
}

export function parseResourcePayload(schema: ResourceSchema, raw: unknown, mode: PayloadMode): ParsedPayload {
  // The reference's other request forms: the same attributes, read as a document.
  const other = otherFormAttributes(schema, raw);
  const body = other === undefined ? raw : { data: { type: schema.type, attributes: other } };
  if (!isObject(body)) throw badBody('The request body must be a JSON object with a top-level data member');
  if (!('data' in body) || body.data === undefined) throw badBody('The request body has no top-level data member');
  const data = body.data;
  if (!isObject(data)) throw badBody('data must be a single resource object');

  if (typeof data.type !== 'string' || data.type === '') {
    throw invalidDocument(`data.type is required and must be '${schema.type}'`, '/data');
  }
  if (data.type !== schema.type && !schema.typeAliases?.includes(data.type)) {
    throw invalidDocument(`data.type must be '${schema.type}' (got '${data.type}')`, '/data/type');
  }
  if (!('attributes' in data) || data.attributes === undefined) {
    throw invalidDocument('data.attributes is required and must be an object', '/data');
  }
  if (!isObject(data.attributes)) throw invalidDocument('data.attributes must be an object', '/data/attributes');

  const attributes: Record<string, unknown> = {};
  const warnings: string[] = [];
  const issues: Issue[] = [];
  for (const [name, value] of Object.entries(data.attributes)) {
    if (SERVER_OWNED_ATTRIBUTES.includes(name)) continue;
    const def = Object.hasOwn(schema.attributes, name) ? schema.attributes[name] : inputOnlyOf(schema, name);
    if (!def) {
      issues.push({ attribute: encodeSegment(name), detail: `${name} is not an attribute of ${schema.type}`, code: 'UNKNOWN_ATTRIBUTE' });
    } else if (def.derivedFrom) {
      warnings.push(`${name} is read-only and derived from ${def.derivedFrom}; the submitted value was ignored`);
    } else if (isInputAttribute(name, def, mode)) {
      attributes[name] = asDeclared(def, value);
    }
  }

  const validate = validatorFor(schema, mode);
  if (!validate(attributes)) issues.push(...issuesOf(validate.errors ?? []));
  if (issues.length === 0) issues.push(...storableTimes(schema, attributes));
  if (issues.length) throw JsonApiError.invalidAttributes(issues);

  if (mode === 'create') {
    for (const [name, def] of Object.entries(schema.attributes)) {
      if (def.default !== undefined && !(name in attributes) && isInputAttribute(name, def, mode)) {
        attributes[name] = structuredClone(def.default);
      }
    }
  }
  return { attributes, warnings };
}

/**
 * The optional body of an operation (the reference's `resolve_incident`, `escalate_alert`, ...):
 * none, or a document without attributes when `schema` requires none, asks nothing; any other body
 * is read as a create document of `schema`, so its type, attributes and their values are checked.
 */
export function parseOperationPayload(schema: ResourceSchema, raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  const data = isObject(raw) ? raw.data : undefined;
  const requiresNone = Object.values(schema.attributes).every((def) => !def.required);
  if (isObject(data) && data.attributes === undefined && requiresNone) return {};
  return parseResourcePayload(schema, raw, 'create').attributes;
}
