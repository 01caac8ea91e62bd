import { BULK_DELETE_RESPONSE_SCHEMA, BULK_LIMIT, bulkDeleteRequestSchema, bulkUpsertRequestSchema } from '../bulk/bulk';
import { JSON_API_MEDIA_TYPE } from '../document/documents';
import { attributesSchema, requestDocumentSchema, type JsonSchema } from '../resource/json-schema';
import { collectionPath, FILTER_OPERATORS, type AttributeDef, type FilterOperator, type ResourceSchema } from '../resource/resource-schema';

export interface OpenApiInfo {
  title: string;
  version: string;
  serverUrl?: string;
  description?: string;
}

/** Hand-written additions (health, non-resource endpoints); on a clash they win. */
export interface OpenApiExtra {
  paths?: Record<string, unknown>;
  schemas?: Record<string, unknown>;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: { url: string }[];
  security: Record<string, string[]>[];
  tags: { name: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
}

type Operation = Record<string, unknown>;
type Parameter = { in: 'query' | 'path' | 'header'; name: string; required: boolean; description?: string; schema: JsonSchema };

export const OPENAPI_VERSION = '3.0.3';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const content = (schema: unknown) => ({ [JSON_API_MEDIA_TYPE]: { schema } });
const response = (description: string, schemaName: string) => ({ description, content: content(ref(schemaName)) });

/** A JSON:API body of the named component schema, for a hand-written operation's request or response. */
export const documentContent = (schemaName: string) => ({ content: content(ref(schemaName)) });
/** A hand-written operation's error response: an `errors_list` document. */
export const errorsResponse = (description: string) => response(description, 'errors_list');

/** `alert_routes` -> `AlertRoutes`; `status-pages` -> `StatusPages`. */
function pascal(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

const words = (name: string) => name.replace(/[_-]+/g, ' ');
/** Bulk schemas are named after the collection path, as the reference does (`bulk_upsert_teams` for type `groups`). */
const collectionOf = (schema: ResourceSchema) => schema.path.split('/').pop() ?? schema.type;
const article = (noun: string) => (/^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`);

// Every operation can fail these ways: a malformed body or query parameter, a missing or expired
// token, and the rate limit (whose body is `{error}`, spec "Errors").
const COMMON_RESPONSES = {
  '400': response('malformed request body or query parameter', 'errors_list'),
  '401': response('responds with unauthorized for invalid token', 'errors_list'),
  '429': {
    description: 'rate limit exceeded; retry later',
    headers: {
      'X-RateLimit-Limit': { description: 'Permitted count and window: `<count>, <count>;window=<seconds>`', schema: { type: 'string' } },
      'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
      'X-RateLimit-Used': { description: 'Requests used in the current window', schema: { type: 'integer' } },
      'X-RateLimit-Reset': { description: 'Window reset time, in UTC epoch seconds', schema: { type: 'integer' } },
    },
    content: content(ref('rate_limit_error')),
  },
};

const SHARED_SCHEMAS: Record<string, JsonSchema> = {
  errors_list: {
    type: 'object',
    properties: {
      errors: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            title: { type: 'string' },
            status: { type: 'string' },
            code: { type: 'string', nullable: true },
            detail: { type: 'string', nullable: true },
            source: {
              type: 'object',
              description: 'The request member the error is about',
              properties: {
                pointer: { type: 'string', description: 'JSON Pointer into the request document, e.g. /data/attributes/name' },
                parameter: { type: 'string', description: 'The query parameter at fault' },
              },
            },
          },
          required: ['title', 'status'],
        },
      },
    },
  },
  links: {
    type: 'object',
    properties: {
      self: { type: 'string' },
      first: { type: 'string' },
      prev: { type: 'string', nullable: true },
      next: { type: 'string', nullable: true },
      last: { type: 'string', nullable: true },
    },
    required: ['self', 'first', 'prev', 'next', 'last'],
  },
  meta: {
    type: 'object',
    properties: {
      current_page: { type: 'integer', nullable: true },
      next_page: { type: 'integer', nullable: true },
      prev_page: { type: 'integer', nullable: true },
      total_count: { type: 'integer' },
      total_pages: { type: 'integer' },
      next_cursor: { type: 'string', nullable: true },
    },
    required: ['current_page', 'next_page', 'prev_page', 'total_count', 'total_pages'],
  },
  jsonapi_included_resource: {
    type: 'object',
    properties: {
      id: { type: 'string' },
      type: { type: 'string' },
      attributes: { type: 'object', additionalProperties: true },
      relationships: { type: 'object', additionalProperties: true },
    },
    required: ['id', 'type'],
  },
  rate_limit_error: {
    type: 'object',
    properties: { error: { type: 'string', description: 'Rate limit exceeded. Try again later.' } },
    required: ['error'],
  },
};

const COMPARISON: readonly FilterOperator[] = ['gt', 'gte', 'lt', 'lte'];
const ORDERED_TYPES = new Set<AttributeDef['type']>(['integer', 'number', 'date-time']);
const FILTERABLE_TYPES = new Set<AttributeDef['type']>(['string', 'boolean', 'integer', 'number', 'date-time']);

/**
 * Operators `filter[<name>][<op>]` accepts, by the list parser's rules: every scalar type takes
 * equality, inclusion and null tests; ordered types (numbers, date-times) also comparisons; an
 * explicit list in the declaration restricts that set.
 */
function filterOperators(def: AttributeDef): FilterOperator[] {
  if (!def.filter || !FILTERABLE_TYPES.has(def.type)) return [];
  const valid = FILTER_OPERATORS.filter((op) => ORDERED_TYPES.has(def.type) || !COMPARISON.includes(op));
  return def.filter === true ? valid : valid.filter((op) => (def.filter as readonly FilterOperator[]).includes(op));
}

function filterValueSchema(def: AttributeDef, op: FilterOperator): JsonSchema {
  switch (op) {
    case 'in':
    case 'not_in':
      return { type: 'string', description: 'Comma-separated values' };
    case 'null':
    case 'not_null':
      return { type: 'boolean' };
  }
  switch (def.type) {
    case 'integer':
    case 'number':
    case 'boolean':
      return { type: def.type };
    case 'date-time':
      return { type: 'string', description: 'ISO 8601 date or date-time' };
    default:
      return { type: 'string', ...(def.format ? { format: def.format } : {}), ...(def.enum ? { enum: [...def.enum] } : {}) };
  }
}

const OPERATOR_TEXT: Record<FilterOperator, string> = {
  eq: 'equals',
  not_eq: 'does not equal',
  gt: 'is greater than',
  gte: 'is greater than or equal to',
  lt: 'is less than',
  lte: 'is less than or equal to',
  in: 'is one of',
  not_in: 'is none of',
  null: 'is null',
  not_null: 'is not null',
};

function queryParam(name: string, schema: JsonSchema, description?: string): Parameter {
  return { in: 'query', name, required: false, ...(description ? { description } : {}), schema };
}

/**
 * `include`: the declaration's relationship names as the enum (the reference's shape), or none
 * to take where it has none (any value is then a 400).
 */
function includeParameter(schema: ResourceSchema): Parameter {
  const names = Object.keys(schema.relationships ?? {});
  return names.length
    ? queryParam('include', { type: 'string', enum: names }, `Comma-separated related resources to include: ${names.join(', ')}`)
    : queryParam('include', { type: 'string' }, `${words(schema.type)} have no related resources to include`);
}

function listParameters(schema: ResourceSchema): Parameter[] {
  const params: Parameter[] = [];
  params.push(
    includeParameter(schema),
    queryParam('page[number]', { type: 'integer', minimum: 1 }, 'Page number (offset pagination), from 1'),
    queryParam('page[size]', { type: 'integer', minimum: 1 }, 'Records per page'),
  );
  if (schema.cursor) {
    params.push(
      queryParam('page[after]', { type: 'string' }, 'Opaque cursor (meta.next_cursor): the page after it'),
      queryParam('page[before]', { type: 'string' }, 'Opaque cursor: the page before it'),
    );
  }
  const sortable = Object.entries(schema.attributes)
    .filter(([, def]) => def.sortable)
    .map(([name]) => name);
  params.push(
    queryParam(
      'sort',
      { type: 'string' },
      `Comma-separated attributes, prefix - for descending${sortable.length ? `; sortable: ${sortable.join(', ')}` : ''}; default ${schema.defaultSort}`,
    ),
  );
  const searchable = Object.entries(schema.attributes)
    .filter(([, def]) => def.searchable)
    .map(([name]) => name);
  if (searchable.length) {
    params.push(queryParam('filter[search]', { type: 'string' }, `Regular expression matched against ${searchable.join(', ')}`));
  }
  // The parent's attributes filter the records of the parents that match (ParentDef.attributes);
  // the list filters named otherwise are parameters like the attributes' (ResourceSchema.listFilters).
  for (const [name, def] of Object.entries({ ...schema.attributes, ...schema.parent?.attributes, ...schema.listFilters })) {
    const ops = filterOperators(def);
    if (ops.includes('eq')) params.push(queryParam(`filter[${name}]`, filterValueSchema(def, 'eq'), `${name} equals`));
    for (const op of ops) params.push(queryParam(`filter[${name}][${op}]`, filterValueSchema(def, op), `${name} ${OPERATOR_TEXT[op]}`));
  }
  for (const [name, { description }] of Object.entries(schema.extraFilters ?? {})) {
    const param = `filter[${name}]`;
    if (!params.some((p) => p.name === param)) params.push(queryParam(param, { type: 'string' }, description));
  }
  for (const [alias, name] of Object.entries(schema.queryAliases ?? {})) {
    const named = params.find((p) => p.name === name);
    if (named) params.push({ ...named, name: alias, description: `${named.description ?? name} (as ${name})` });
  }
  return params;
}

/** `{organization_id}`-style segments of a (nested) collection path. */
function templateParameters(path: string): Parameter[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({ in: 'path', name, required: true, schema: { type: 'string' } }));
}

function idParameter(schema: ResourceSchema): Parameter {
  const uuid = { type: 'string', format: 'uuid', description: 'Resource UUID' };
  const bySlug = 'slug' in schema.attributes;
  return {
    in: 'path',
    name: 'id',
    required: true,
    schema: bySlug ? { anyOf: [uuid, { type: 'string', pattern: '^[a-z0-9_-]+$', description: 'Resource slug' }] } : uuid,
  };
}

/**
 * A resource object of `type` whose attributes are the component schema `attributes`, in the form
 * of the generated documents (and the hosted reference's): shared with hand-written documents so
 * they cannot drift from it.
 */
export function resourceObjectSchema(type: string, attributes: string, opts: { idDescription?: string; relationships?: JsonSchema } = {}): JsonSchema {
  return {
    type: 'object',
    properties: {
      id: { type: 'string', ...(opts.idDescription === undefined ? {} : { description: opts.idDescription }) },
      type: { type: 'string', enum: [type] },
      attributes: { type: 'object', allOf: [ref(attributes)] },
      ...(opts.relationships ? { relationships: opts.relationships } : {}),
    },
    required: ['id', 'type', 'attributes'],
  };
}

/**
 * A document whose `data` is a list of `resourceObjectSchema`s, without links or meta: a
 * hand-written route's answer that is no paged list (an action's records, a computed list).
 */
export function resourceListDocument(type: string, attributes: string, opts: { description?: string; relationships?: JsonSchema; included?: JsonSchema } = {}): JsonSchema {
  return {
    type: 'object',
    ...(opts.description === undefined ? {} : { description: opts.description }),
    properties: {
      data: { type: 'array', items: resourceObjectSchema(type, attributes, { relationships: opts.relationships }) },
      ...(opts.included ? { included: opts.included } : {}),
    },
    required: ['data'],
  };
}

/** A declared resource's object, as its responses and lists answer it. */
const declaredObjectSchema = (schema: ResourceSchema): JsonSchema => resourceObjectSchema(schema.type, schema.singular, { idDescription: `Unique ID of the ${words(schema.singular)}` });

function resourceSchemas(schema: ResourceSchema): Record<string, JsonSchema> {
  const s = schema.singular;
  const included = { type: 'array', items: ref('jsonapi_included_resource') };
  return {
    [s]: attributesSchema(schema, 'output'),
    [`new_${s}`]: requestDocumentSchema(schema, 'create'),
    [`update_${s}`]: requestDocumentSchema(schema, 'update'),
    [`${s}_response`]: {
      type: 'object',
      properties: { data: declaredObjectSchema(schema), included },
      required: ['data'],
    },
    [`${s}_list`]: {
      type: 'object',
      properties: {
        data: { type: 'array', items: declaredObjectSchema(schema) },
        included,
        links: { type: 'object', allOf: [ref('links')] },
        meta: { type: 'object', allOf: [ref('meta')] },
      },
      required: ['data', 'links', 'meta'],
    },
    ...(schema.bulk ? bulkSchemas(schema) : {}),
  };
}

function bulkSchemas(schema: ResourceSchema): Record<string, JsonSchema> {
  const c = collectionOf(schema);
  return {
    [`bulk_upsert_${c}`]: bulkUpsertRequestSchema(schema),
    [`bulk_upsert_${c}_response`]: {
      type: 'object',
      properties: { data: { type: 'array', items: declaredObjectSchema(schema) } },
      required: ['data'],
    },
    [`bulk_destroy_${c}`]: bulkDeleteRequestSchema(schema),
    [`bulk_destroy_${c}_response`]: BULK_DELETE_RESPONSE_SCHEMA,
  };
}

/**
 * The paths of one resource: its collection (under its parent when it has one), its records, and
 * the list across parents and bulk operations when declared. `stillReferenced`: what can keep a
 * record from being deleted (a 409), when anything can.
 */
function resourcePaths(schema: ResourceSchema, stillReferenced: string | null): Record<string, Record<string, unknown>> {
  const s = schema.singular;
  const one = words(s);
  const aOne = article(one);
  const plural = schema.plural ?? schema.type;
  const named = schema.operationIds ?? {};
  const tags = [pascal(plural)];
  const ops = new Set(schema.operations);
  const op = (fields: Operation, responses: Record<string, unknown>): Operation => ({
    ...fields,
    tags,
    responses: { ...responses, ...COMMON_RESPONSES },
  });
  const body = (schemaName: string) => ({ required: true, content: content(ref(schemaName)) });
  const notFound = response('resource not found', 'errors_list');
  const invalid = response('invalid request', 'errors_list');
  // Bodies not sent as application/vnd.api+json are refused (spec, Versioning: Jan 5 2026).
  const unsupported = response('request body is not application/vnd.api+json', 'errors_list');
  const paths: Record<string, Record<string, unknown>> = {};
  const withParams = (params: Parameter[]) => (params.length ? { parameters: params } : {});
  const list = (operationId: string, description: string, extra: Record<string, unknown> = {}) =>
    op({ summary: `List ${words(plural)}`, description, operationId, parameters: listParameters(schema) }, { '200': response('success', `${s}_list`), ...extra });
  // `incident_role_id` -> `incident role`. A parent missing from the caller's organization is a 404.
  const parent = schema.parent && words(schema.parent.param.replace(/_id$/, ''));
  const parentMissing = parent ? { '404': response(`${parent} not found`, 'errors_list') } : {};

  const collection: Record<string, unknown> = {};
  if (ops.has('list')) collection.get = list(named.list ?? `list${pascal(plural)}`, `List ${words(plural)}`, parentMissing);
  if (ops.has('create')) {
    collection.post = op(
      { summary: `Creates ${aOne}`, description: `Creates a new ${one} from provided data`, operationId: named.create ?? `create${pascal(s)}`, requestBody: body(`new_${s}`) },
      { '201': response(`${one} created`, `${s}_response`), ...parentMissing, '415': unsupported, '422': invalid },
    );
  }
  if (Object.keys(collection).length) paths[collectionPath(schema)] = { ...withParams(templateParameters(collectionPath(schema))), ...collection };
  const pathParams = templateParameters(schema.path);
  if (schema.parent?.flatList && ops.has('list')) {
    paths[schema.path] = { ...withParams(pathParams), get: list(`listAll${pascal(plural)}`, `List the ${words(plural)} of every ${parent}`) };
  }

  const item: Record<string, unknown> = {};
  if (ops.has('get')) {
    item.get = op(
      {
        summary: `Retrieves ${aOne}`,
        description: `Retrieves a specific ${one} by id`,
        operationId: named.get ?? `get${pascal(s)}`,
        ...(schema.relationships ? { parameters: [includeParameter(schema)] } : {}),
      },
      { '200': response(`${one} found`, `${s}_response`), '404': notFound },
    );
  }
  if (ops.has('update')) {
    const methods = schema.updateMethod === 'both' ? (['put', 'patch'] as const) : ([schema.updateMethod ?? 'put'] as const);
    for (const method of methods) {
      // With both, PATCH is named as the reference names it (`patchAlertRoute`).
      const operationId = method === 'patch' && methods.length > 1 ? `patch${pascal(s)}` : (named.update ?? `update${pascal(s)}`);
      item[method] = op(
        { summary: `Update ${aOne}`, description: `Update a specific ${one} by id`, operationId, requestBody: body(`update_${s}`) },
        { '200': response(`${one} updated`, `${s}_response`), '404': notFound, '415': unsupported, '422': invalid },
      );
    }
  }
  if (ops.has('delete')) {
    const refused = stillReferenced ? { '409': response(`the ${one} still has ${stillReferenced}; delete them first`, 'errors_list') } : {};
    item.delete = op(
      { summary: `Delete ${aOne}`, description: `Delete a specific ${one} by id; answers the deleted record`, operationId: named.delete ?? `delete${pascal(s)}` },
      { '200': response(`${one} deleted`, `${s}_response`), '404': notFound, ...refused },
    );
  }
  if (Object.keys(item).length) paths[`${schema.path}/{id}`] = { parameters: [...pathParams, idParameter(schema)], ...item };

  if (schema.bulk) {
    const c = collectionOf(schema);
    const many = words(schema.type);
    const forbidden = response('the caller lacks a permission the operation needs', 'errors_list');
    // Under a parent, a batch is of one parent's records: its actions are the nested collection's.
    const base = schema.parent ? collectionPath(schema) : schema.path;
    const bulk = (fields: Operation, ok: Record<string, unknown>) => ({
      ...withParams(templateParameters(base)),
      post: op(fields, { ...ok, ...parentMissing, '403': forbidden, '415': unsupported, '422': invalid }),
    });
    paths[`${base}/bulk_upsert`] = bulk(
      {
        summary: `Bulk upsert ${many}`,
        description: `Creates or updates up to ${BULK_LIMIT} ${many} by external_id. Only the attributes present are written. One transaction: all succeed or all fail, and the errors name each failed item (/entities/<index>/...). Needs create and update.`,
        operationId: `bulkUpsert${pascal(schema.type)}`,
        requestBody: body(`bulk_upsert_${c}`),
      },
      { '200': response('records upserted', `bulk_upsert_${c}_response`) },
    );
    paths[`${base}/bulk_delete`] = bulk(
      {
        summary: `Bulk delete ${many}`,
        description: `Deletes ${many} by external_id, or prunes the records of a managed_by source whose external_id is not kept, in one transaction. Needs delete.`,
        operationId: `bulkDelete${pascal(schema.type)}`,
        requestBody: body(`bulk_destroy_${c}`),
      },
      { '200': response('records deleted', `bulk_destroy_${c}_response`) },
    );
  }
  return paths;
}

const IDEMPOTENCY_KEY: Parameter = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes a retry safe: for 24 hours a request with the same key and body gets the first answer again (with `Idempotent-Replayed: true`) instead of running twice. Per organization and API key (or OAuth client and user); 1 to 255 printable ASCII characters.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[ -~]+$' },
};
const IDEMPOTENCY_RESPONSES = {
  '409': response('Idempotency-Key: a request with this key is in progress, or committed without its answer recorded', 'errors_list'),
  '422': response('Idempotency-Key reused with another body or path', 'errors_list'),
};

/** Every authenticated POST takes `Idempotency-Key` (docs/decisions/0005-idempotency-keys.md). */
function withIdempotencyKeys(paths: Record<string, Record<string, unknown>>): void {
  for (const item of Object.values(paths)) {
    const post = item.post as Operation | undefined;
    if (!post || (Array.isArray(post.security) && post.security.length === 0)) continue;
    const parameters = (post.parameters as Parameter[] | undefined) ?? [];
    // A context's fragment built by this function already has it: a parameter is declared once.
    if (parameters.some((p) => p.name === IDEMPOTENCY_KEY.name && p.in === 'header')) continue;
    item.post = { ...post, parameters: [...parameters, IDEMPOTENCY_KEY], responses: { ...IDEMPOTENCY_RESPONSES, ...(post.responses as object) } };
  }
}

/**
 * What keeps a record of `schema` from being deleted, in words, or null: records under it whose
 * parent's delete does not take them along (ParentDef.onParentDelete), and the records its
 * declaration says name it.
 */
function stillReferencedBy(schema: ResourceSchema, resources: readonly ResourceSchema[]): string | null {
  const restricting = resources.filter((r) => r.parent?.path === schema.path && (r.parent.onParentDelete ?? 'restrict') === 'restrict');
  const what = [...(restricting.length ? ['records under it'] : []), ...(schema.deleteRefusedWhileNamedBy ?? []).map((type) => `${words(type)} naming it`)];
  return what.length ? what.join(' or ') : null;
}

/**
 * The OpenAPI 3.0 document of the declared resources, in the reference's style (schema names
 * `<singular>`, `new_<singular>`, `update_<singular>`, `<singular>_response`, `<singular>_list`;
 * operation ids `listServices`, `createService`, ...). Bearer auth applies to every operation
 * unless a hand-written one sets `security: []`.
 */
export function buildOpenApiDocument(resources: readonly ResourceSchema[], info: OpenApiInfo, extra: OpenApiExtra = {}): OpenApiDocument {
  const schemas: Record<string, unknown> = { ...SHARED_SCHEMAS };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const resource of resources) {
    Object.assign(schemas, resourceSchemas(resource));
    for (const [path, item] of Object.entries(resourcePaths(resource, stillReferencedBy(resource, resources)))) paths[path] = { ...paths[path], ...item };
  }
  Object.assign(schemas, extra.schemas);
  for (const [path, item] of Object.entries(extra.paths ?? {})) paths[path] = { ...paths[path], ...(item as Record<string, unknown>) };
  withIdempotencyKeys(paths);

  return {
    openapi: OPENAPI_VERSION,
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    ...(info.serverUrl ? { servers: [{ url: info.serverUrl }] } : {}),
    security: [{ bearer_auth: [] }],
    tags: [...new Set(resources.map((r) => pascal(r.plural ?? r.type)))].map((name) => ({ name })),
    paths,
    components: {
      schemas,
      securitySchemes: { bearer_auth: { type: 'http', scheme: 'bearer' } },
    },
  };
}

/**
 * A single-record response whose attributes add a secret shown only in that answer (an API
 * key's `token`, an application's `client_secret`): the record's schema plus the required field.
 */
export function responseWithSecret(type: string, recordSchema: string, secret: { name: string; description: string }): Record<string, unknown> {
  return {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        required: ['id', 'type', 'attributes'],
        properties: {
          id: { type: 'string' },
          type: { type: 'string', enum: [type] },
          attributes: {
            allOf: [{ $ref: `#/components/schemas/${recordSchema}` }, { type: 'object', required: [secret.name], properties: { [secret.name]: { type: 'string', description: secret.description } } }],
          },
        },
      },
    },
  };
}
