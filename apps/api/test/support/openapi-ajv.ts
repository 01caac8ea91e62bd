/**
 * Validating real responses against an OpenAPI 3.0 document with ajv (JSON Schema draft-07).
 *
 * OpenAPI 3.0 schemas are not JSON Schema: `nullable: true` widens a type to null (and ajv
 * ignores the keyword), `exclusiveMinimum`/`exclusiveMaximum` are draft-04 booleans, and refs
 * point at `#/components/schemas/<name>` inside the whole document. `openApiSchemaToJsonSchema`
 * rewrites a schema into JSON Schema; `OpenApiValidator` registers every component schema with
 * ajv under its own id so refs resolve, then validates bodies by component name or by the
 * response an operation declares.
 *
 * Used by the contract test (Taproot's own served document) and by the conformance suite (the
 * reference document beside the repository, `validateAgainstReference`).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

export const JSON_API_MEDIA_TYPE = 'application/vnd.api+json';

export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocumentLike {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, unknown> };
}

export interface DeclaredOperation {
  path: string;
  method: string;
  /** Response statuses the operation declares (`'200'`, `'404'`, `'default'`, ...). */
  statuses: string[];
  /** Names of the parameters declared on the path item and the operation. */
  parameters: string[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];
const COMPONENT_REF = /^#\/components\/schemas\/(.+)$/;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// Keywords whose value is a schema, an array of schemas, or a map of schemas. Only these are
// walked: a property *named* `type` or `nullable` (the reference's `service` has one named
// `properties`) must not be mistaken for a keyword.
const SCHEMA_KEYWORDS = new Set(['items', 'additionalItems', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else']);
const SCHEMA_ARRAY_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf']);
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies']);

/**
 * One OpenAPI 3.0 schema as JSON Schema draft-07:
 * - `nullable: true` with a `type` becomes `type: [t, 'null']`; an `enum` also gets `null`
 *   (3.0.3 says `nullable` does not extend an enum, but both documents list the enum of a
 *   nullable attribute without null and mean "or null"); without a `type` (a bare `allOf` or
 *   `$ref`), the schema becomes `anyOf: [{type: 'null'}, schema]`.
 * - boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric draft-06+ form.
 * - `$ref: '#/components/schemas/X'` becomes `$ref: refId('X')`.
 * Other keywords (`description`, `example`, `discriminator`, ...) are copied; ajv runs with
 * `strict: false` and ignores what it does not know.
 */
export function openApiSchemaToJsonSchema(schema: unknown, refId: (name: string) => string): unknown {
  if (!isObject(schema)) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable') continue;
    if (key === '$ref' && typeof value === 'string') {
      const m = COMPONENT_REF.exec(value);
      out.$ref = m ? refId(decodeURIComponent(m[1])) : value;
    } else if (SCHEMA_KEYWORDS.has(key) && isObject(value)) {
      out[key] = openApiSchemaToJsonSchema(value, refId);
    } else if (SCHEMA_ARRAY_KEYWORDS.has(key) && Array.isArray(value)) {
      out[key] = value.map((s) => openApiSchemaToJsonSchema(s, refId));
    } else if (key === 'items' && Array.isArray(value)) {
      out[key] = value.map((s) => openApiSchemaToJsonSchema(s, refId));
    } else if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(
        Object.entries(value).map(([name, s]) => [name, Array.isArray(s) ? s : openApiSchemaToJsonSchema(s, refId)]),
      );
    } else {
      out[key] = value;
    }
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else if (typeof out[flag] === 'boolean') {
      delete out[flag];
    }
  }
  if (schema.nullable !== true) return out;
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
  } else if (Array.isArray(out.type)) {
    if (!out.type.includes('null')) out.type = [...out.type, 'null'];
  } else if (out.$ref !== undefined || out.allOf !== undefined || out.anyOf !== undefined || out.oneOf !== undefined) {
    return { anyOf: [{ type: 'null' }, out] };
  }
  return out;
}

function describeError(e: ErrorObject): string {
  const at = e.instancePath || '(root)';
  const extra =
    e.keyword === 'additionalProperties'
      ? ` '${String(e.params.additionalProperty)}'`
      : e.keyword === 'enum'
        ? ` ${JSON.stringify(e.params.allowedValues)}`
        : '';
  const data = e.data === undefined ? '' : ` (got ${JSON.stringify(e.data)?.slice(0, 120)})`;
  return `${at} ${e.message ?? e.keyword}${extra}${data} [${e.schemaPath}]`;
}

/** An OpenAPI 3.0 document whose component schemas ajv can validate against. */
export class OpenApiValidator {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly base: string;

  constructor(
    readonly document: OpenApiDocumentLike,
    /** Shown in messages and used in the schema ids (`https://<label>.openapi.test/...`). */
    readonly label = 'openapi',
  ) {
    assert.ok(isObject(document) && typeof document.openapi === 'string', `${label}: not an OpenAPI document`);
    assert.match(document.openapi, /^3\.0\./, `${label}: expected an OpenAPI 3.0 document, got ${document.openapi}`);
    this.base = `https://${label.replace(/[^a-z0-9-]/gi, '-').toLowerCase()}.openapi.test`;
    this.ajv = new Ajv({ strict: false, allErrors: true, verbose: true, validateSchema: false, logger: false });
    addFormats(this.ajv);
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
      const converted = openApiSchemaToJsonSchema(schema, (n) => this.refId(n)) as JsonSchema;
      this.ajv.addSchema({ ...converted, $id: this.refId(name) });
    }
  }

  refId(name: string): string {
    return `${this.base}/components/schemas/${encodeURIComponent(name)}`;
  }

  hasSchema(name: string): boolean {
    return Object.hasOwn(this.document.components?.schemas ?? {}, name);
  }

  /** The component schema as the document writes it (OpenAPI 3.0, refs unresolved). */
  schema(name: string): JsonSchema {
    assert.ok(this.hasSchema(name), `${this.label}: no component schema '${name}'`);
    return this.document.components!.schemas![name] as JsonSchema;
  }

  /** Follows `#/components/schemas/...` refs (and single-entry `allOf` wrappers of one) to a schema. */
  resolve(schema: unknown): JsonSchema {
    let current = schema;
    for (let i = 0; i < 32; i++) {
      if (!isObject(current)) break;
      const m = typeof current.$ref === 'string' ? COMPONENT_REF.exec(current.$ref) : null;
      if (!m) return current;
      current = this.schema(decodeURIComponent(m[1]));
    }
    assert.ok(isObject(current), `${this.label}: cannot resolve ${JSON.stringify(schema)}`);
    return current;
  }

  /** Problems of `body` against the component schema `name`; empty when valid. */
  errors(name: string, body: unknown): string[] {
    assert.ok(this.hasSchema(name), `${this.label}: no component schema '${name}'`);
    let validate = this.compiled.get(name);
    if (!validate) {
      validate = this.ajv.getSchema(this.refId(name));
      assert.ok(validate, `${this.label}: schema '${name}' did not compile`);
      this.compiled.set(name, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map(describeError);
  }

  /** Problems of `body` against an inline OpenAPI schema (refs into this document allowed). */
  errorsAgainst(schema: unknown, body: unknown): string[] {
    const m = isObject(schema) && typeof schema.$ref === 'string' ? COMPONENT_REF.exec(schema.$ref) : null;
    if (m && Object.keys(schema as object).length === 1) return this.errors(decodeURIComponent(m[1]), body);
    const key = `inline:${JSON.stringify(schema)}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(openApiSchemaToJsonSchema(schema, (n) => this.refId(n)) as JsonSchema);
      this.compiled.set(key, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map(describeError);
  }

  /** Throws an AssertionError listing every problem of `body` against component `name`. */
  assertValid(name: string, body: unknown, context = ''): void {
    const problems = this.errors(name, body);
    assert.deepEqual(
      problems,
      [],
      `${context ? `${context}: ` : ''}body does not match ${this.label} schema '${name}':\n  ${problems.join('\n  ')}\nbody: ${JSON.stringify(body)?.slice(0, 2000)}`,
    );
  }

  /** Every operation of the document whose path `pathFilter` accepts. */
  operations(pathFilter: (path: string) => boolean = () => true): DeclaredOperation[] {
    const out: DeclaredOperation[] = [];
    for (const [path, item] of Object.entries(this.document.paths)) {
      if (!pathFilter(path)) continue;
      const shared = Array.isArray(item.parameters) ? (item.parameters as { name: string }[]) : [];
      for (const method of HTTP_METHODS) {
        const op = item[method];
        if (!isObject(op)) continue;
        const own = Array.isArray(op.parameters) ? (op.parameters as { name: string }[]) : [];
        out.push({
          path,
          method,
          statuses: Object.keys(isObject(op.responses) ? op.responses : {}),
          parameters: [...new Set([...shared, ...own].map((p) => p.name))],
        });
      }
    }
    return out;
  }

  operation(path: string, method: string): DeclaredOperation | undefined {
    return this.operations((p) => p === path).find((o) => o.method === method.toLowerCase());
  }

  /**
   * The schema an operation declares for a response status under `media`, as written (a `$ref`
   * or inline); `undefined` when the operation, the status or that media type is not declared.
   * Falls back to a `default` response, as OpenAPI does.
   */
  responseSchema(path: string, method: string, status: number | string, media = JSON_API_MEDIA_TYPE): unknown {
    const op = this.document.paths[path]?.[method.toLowerCase()];
    if (!isObject(op) || !isObject(op.responses)) return undefined;
    const responses = op.responses;
    const response = this.resolveResponse(responses[String(status)] ?? responses.default);
    const content = isObject(response) && isObject(response.content) ? response.content : undefined;
    const entry = content?.[media];
    return isObject(entry) ? entry.schema : undefined;
  }

  /** The schema of an operation's request body under `media`, as written; `undefined` if none. */
  requestSchema(path: string, method: string, media = JSON_API_MEDIA_TYPE): unknown {
    const op = this.document.paths[path]?.[method.toLowerCase()];
    const body = isObject(op) && isObject(op.requestBody) ? op.requestBody : undefined;
    const entry = isObject(body?.content) ? body.content[media] : undefined;
    return isObject(entry) ? entry.schema : undefined;
  }

  private resolveResponse(response: unknown): unknown {
    if (isObject(response) && typeof response.$ref === 'string') {
      const m = /^#\/components\/responses\/(.+)$/.exec(response.$ref);
      const all = (this.document.components as Record<string, Record<string, unknown>> | undefined)?.responses;
      return m ? all?.[decodeURIComponent(m[1])] : undefined;
    }
    return response;
  }
}

// ---------------------------------------------------------------------------------------------
// Documents that satisfy a schema

export interface SampleOptions {
  /**
   * A value for the location (JSON Pointer below the sampled schema, e.g.
   * `/data/attributes/color`), or `undefined` to let the generator choose.
   */
  pick?: (pointer: string, schema: JsonSchema) => unknown;
  /** Set every nullable property to null instead of a value. */
  nulls?: boolean;
  /** Only the required properties of objects (all of them otherwise). */
  requiredOnly?: boolean;
  /** Which enum member to take (modulo the enum's length, nulls skipped); 0 by default. */
  enumIndex?: number;
}

const STRING_FORMATS: Record<string, () => string> = {
  uuid: () => randomUUID(),
  email: () => 'someone@example.com',
  'date-time': () => new Date().toISOString(),
  date: () => new Date().toISOString().slice(0, 10),
  // RFC 3339 full-time, as ajv-formats checks it (an offset is required).
  time: () => '09:30:00Z',
  uri: () => 'https://example.com/resource',
  url: () => 'https://example.com/resource',
  hostname: () => 'example.com',
  ipv4: () => '192.0.2.1',
};

/**
 * A value that satisfies an OpenAPI 3.0 schema of `validator`'s document, with every property
 * of every object filled (unless `requiredOnly`), so a new attribute in the schema shows up in
 * the generated document. Throws where it cannot honour a constraint (a `pattern`) without a
 * `pick`.
 */
export function sampleFromSchema(validator: OpenApiValidator, schema: unknown, options: SampleOptions = {}, pointer = ''): unknown {
  const s = validator.resolve(schema);
  const picked = options.pick?.(pointer, s);
  if (picked !== undefined) return picked;
  if (options.nulls && s.nullable === true && pointer !== '') return null;
  if (Array.isArray(s.allOf)) {
    const parts = s.allOf.map((part) => sampleFromSchema(validator, part, options, pointer));
    const { allOf: _allOf, ...rest } = s;
    const own = Object.keys(rest).some((k) => k === 'properties' || k === 'items' || k === 'enum') ? sampleFromSchema(validator, rest, options, pointer) : undefined;
    if ([...parts, own].every((p) => p === undefined || isObject(p))) return Object.assign({}, ...parts, own ?? {});
    return parts[0];
  }
  if (Array.isArray(s.oneOf)) return sampleFromSchema(validator, s.oneOf[0], options, pointer);
  if (Array.isArray(s.anyOf)) return sampleFromSchema(validator, s.anyOf[0], options, pointer);
  if (Array.isArray(s.enum)) {
    const values = s.enum.filter((v) => v !== null);
    assert.ok(values.length, `${pointer}: enum without a non-null value`);
    return values[(options.enumIndex ?? 0) % values.length];
  }
  switch (s.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      for (const [name, prop] of Object.entries(isObject(s.properties) ? s.properties : {})) {
        // The document's envelope (`data` and its members) is always sent: a reference request schema may forget to require `data`.
        const envelope = pointer === '' || pointer === '/data';
        if (options.requiredOnly && !required.has(name) && !envelope) continue;
        out[name] = sampleFromSchema(validator, prop, options, `${pointer}/${name}`);
      }
      return out;
    }
    case 'array': {
      const count = Math.max(1, typeof s.minItems === 'number' ? s.minItems : 1);
      return Array.from({ length: count }, (_, i) => sampleFromSchema(validator, s.items ?? {}, options, `${pointer}/${i}`));
    }
    case 'integer':
    case 'number': {
      const min = typeof s.minimum === 'number' ? s.minimum : 1;
      const max = typeof s.maximum === 'number' ? s.maximum : min + 100;
      return Math.min(Math.max(min, 1), max);
    }
    case 'boolean':
      return true;
    case 'string': {
      assert.ok(s.pattern === undefined, `${pointer}: cannot sample pattern ${String(s.pattern)}; pass options.pick`);
      const format = typeof s.format === 'string' ? STRING_FORMATS[s.format] : undefined;
      let value = format ? format() : `sample ${pointer.split('/').filter((p) => !/^\d+$/.test(p)).pop() ?? 'value'}`;
      if (typeof s.maxLength === 'number') value = value.slice(0, s.maxLength);
      if (typeof s.minLength === 'number') value = value.padEnd(s.minLength, 'x');
      return value;
    }
    default:
      // No type (an open schema): anything is valid.
      return isObject(s.properties) ? sampleFromSchema(validator, { ...s, type: 'object' }, options, pointer) : 'sample';
  }
}

// ---------------------------------------------------------------------------------------------
// The reference document beside the repository (conformance suite only)

/** The repository root (this file is `<repo>/apps/api/test/support/openapi-ajv.ts`). */
// Jest runs from the workspace root (jest.config.mjs); ES modules have no `__dirname`.
export const REPO_ROOT = process.cwd();

/** `<repo>/../shared/reference/openapi-v1.json`: read in place, never copied into the repository. */
export const REFERENCE_OPENAPI_PATH = resolve(REPO_ROOT, '..', 'shared', 'reference', 'openapi-v1.json');

let reference: OpenApiValidator | undefined;

/** The reference document's validator; throws a clear error when the file is missing. */
export function referenceValidator(): OpenApiValidator {
  if (reference) return reference;
  if (!existsSync(REFERENCE_OPENAPI_PATH)) {
    throw new Error(
      `The reference OpenAPI document is missing: expected ${REFERENCE_OPENAPI_PATH} ` +
        '(../shared/reference/openapi-v1.json beside the repository). The conformance suite validates against it; ' +
        'check out ../shared next to the repository (it is never copied in).',
    );
  }
  const document = JSON.parse(readFileSync(REFERENCE_OPENAPI_PATH, 'utf8')) as OpenApiDocumentLike;
  reference = new OpenApiValidator(document, 'reference');
  return reference;
}

/** Asserts that `body` satisfies the reference's component schema `schemaName` (e.g. `service_response`). */
export function validateAgainstReference(schemaName: string, body: unknown, context = ''): void {
  referenceValidator().assertValid(schemaName, body, context);
}
