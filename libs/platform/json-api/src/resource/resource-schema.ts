/**
 * The one declaration of a resource (architecture rule 1). Request validation, the serializer,
 * the list query builder and the OpenAPI document all read it; nothing else lists a resource's
 * attributes.
 */
export type ScalarType = 'string' | 'integer' | 'number' | 'boolean' | 'date-time';
export type AttributeType = ScalarType | 'object' | 'array';

/** Filter operators of `filter[field][op]=value`; `eq` is the default when no op is given. */
export const FILTER_OPERATORS = [
  'eq',
  'not_eq',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'not_in',
  'null',
  'not_null',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface ItemDef {
  type: ScalarType | 'object';
  enum?: readonly (string | number)[];
  format?: 'uuid' | 'uri' | 'email';
  /** For arrays of objects: the object's properties. */
  properties?: Record<string, AttributeDef>;
}

export interface AttributeDef {
  type: AttributeType;
  description?: string;
  enum?: readonly (string | number)[];
  format?: 'uuid' | 'uri' | 'email';
  /**
   * A string id a client may send as a JSON number (users' ids are integers, and clients send
   * `user_id: 42`): a safe integer is taken as its decimal text before validation.
   */
  integerAsText?: boolean;
  /**
   * A boolean the reference declares as the integer 1 or 0 (alert groups' legacy `group_by_*`,
   * which clients send as booleans): 1 and 0 are taken as true and false before validation.
   */
  integerAsBoolean?: boolean;
  /**
   * An optional member of an object item that clients send as "" when it is not set (the hosted
   * API's Terraform provider does so for every optional string of a block): "" is taken as not
   * sent before validation.
   */
  blankAsUnset?: boolean;
  /**
   * An optional member of an object that clients send as null when it is not set (the provider's
   * object attributes send every member, unset ones null), where null is no value of it: null is
   * taken as not sent before validation.
   */
  nullAsUnset?: boolean;
  items?: ItemDef;
  /** For objects: their properties (others rejected); omitted = free-form object. */
  properties?: Record<string, AttributeDef>;
  nullable?: boolean;
  /**
   * The server always stores a value (a default or one it assigns, like `position`), so reads
   * never see null even where a write may send null. Lets keyset pages use a row comparison.
   */
  alwaysStored?: boolean;
  /** Required in a create payload. */
  required?: boolean;
  /**
   * `true` (default): accepted on create and update. `'create'`: create only. `false`:
   * output-only; a client's value is ignored without error.
   */
  writable?: boolean | 'create';
  /** Value stored when a create payload omits the attribute. */
  default?: unknown;
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  /** Database column of the read model, when it differs from the attribute name. */
  column?: string;
  /** Operators accepted by `filter[<name>]`; `true` means every operator valid for the type. */
  filter?: boolean | readonly FilterOperator[];
  sortable?: boolean;
  /** Included in the `filter[search]` regex match. */
  searchable?: boolean;
  /** `slug`-like attributes derived from another one: read-only, a submitted value warns. */
  derivedFrom?: string;
  /**
   * A list declaration's filter that no read-model column backs (`filter[service_names]` of
   * incidents): parsed and validated like an attribute of its type, then rewritten by the
   * resource's reader into conditions on real columns (names looked up as ids) before
   * `buildListSql`, which never selects it and refuses it as a filter.
   */
  virtual?: boolean;
  /**
   * Left out of answers while null: the reference's answer declares the attribute non-nullable and
   * its clients (the generated SDK) fail on a null (a live call router without a direct target).
   */
  omitWhenNull?: boolean;
  /**
   * A secret, kept out of what leaves the write table (strings only). `'answered'`: the API answers
   * it (a webhook endpoint's signing secret, which its owner reads back) but events carry
   * `REDACTED`, so the bus, the audit log and every consumer never see it; the read model copies it
   * from the write table. `'write-only'`: answers, events and the read model all carry `REDACTED`
   * (a secret's value); only the write table holds it.
   */
  sensitive?: 'answered' | 'write-only';
}

/** What a sensitive attribute's value is replaced with where it must not appear. */
export const REDACTED = '********';

/**
 * A name `include` takes (query/includes.ts serves it). The names are the reference's `include`
 * enum of the resource's list and get operations, so validation and the OpenAPI enum agree.
 */
export interface RelationshipDef {
  /** JSON:API type of the related resource, e.g. `severities`. */
  type: string;
  many: boolean;
  /** Attribute holding the related id(s), e.g. `severity_id`; absent when the related records name this one. */
  idAttribute?: string;
  /**
   * The reference declares the name but Taproot has no such records (schedules, devices): the
   * value is accepted, because clients send the reference's values and a 400 would break them,
   * and includes nothing (empty linkage).
   */
  absent?: true;
  /**
   * Answered in `relationships` whether `include` names it or not (its records are then not
   * included): the hosted API answers some linkage always, and its MCP server reads it (a
   * schedule's rotations, a rotation member's user).
   */
  linked?: true;
}

/**
 * A resource whose records live under a parent record (reference:
 * `/v1/incident_roles/{incident_role_id}/incident_role_tasks`): its collection (list, create) is
 * served under the parent, its records at its own `path` (`/v1/incident_role_tasks/{id}`).
 */
export interface ParentDef {
  /** The parent's collection path, e.g. `/v1/incident_roles`. */
  path: string;
  /** The path parameter naming the parent record, e.g. `incident_role_id`. */
  param: string;
  /**
   * The attribute (and column) holding the parent's id, declared in `attributes` and not
   * writable on update: a record stays under the parent it was created under.
   */
  attribute: string;
  /** The parent's write table, where the parent is looked up in the caller's organization. */
  table: string;
  /** The nested collection's last segment when it differs from the resource path's (`sub_statuses`). */
  segment?: string;
  /** The parent's ids are integers (users), not uuids; the parent attribute is then an integer. */
  integerIds?: boolean;
  /** Also served: `GET <path>`, the list across every parent (reference: `GET /v1/action_items`). */
  flatList?: boolean;
  /**
   * What the parent's delete does with its records: `cascade`, deletes them with it (its
   * definition's `children`, its own command, or the database's ON DELETE CASCADE); `restrict`
   * (the default), refuses with 409 STILL_REFERENCED while any remain. The OpenAPI document's
   * 409 on the parent's delete follows it.
   */
  onParentDelete?: 'cascade' | 'restrict';
  /** The parent's read model, where lists read `attributes`. */
  readTable?: string;
  /**
   * Creates under one parent that append (no `position` sent) take turns, so each takes its own
   * position: for short lists whose clients require distinct positions (the hosted API's Terraform
   * provider refuses a workflow whose tasks share one). Without it, appends stay concurrent and
   * two at the same instant may share a position (ties go by id), as a catalog's entities do.
   */
  distinctPositions?: boolean;
  /**
   * Attributes of the parent that its records' lists filter on, by the name the list takes
   * (`incident_status`, `column` `status` of `readTable`): a record matches when its parent does.
   * Never stored with the records nor answered; clients filter on those with `filter`, the others
   * serve the route's own conditions (the records of private incidents some callers may not see).
   */
  attributes?: Record<string, AttributeDef>;
}

export interface ResourceSchema {
  /** JSON:API type, e.g. `services`. */
  type: string;
  /** Singular name used in OpenAPI schema names, e.g. `service`. */
  singular: string;
  /**
   * The plural of its operation ids and tag (`listOverrideShifts`) when the type is not it: an
   * override is of the reference's type `shifts`, whose own list is `listShifts`. Omitted: the type.
   */
  plural?: string;
  /**
   * The reference's operation ids where they are not the generated ones (`list<Plural>`,
   * `get<Singular>`, ...): a user's e-mail addresses are `getUserEmailAddresses` and `showUserEmailAddress`.
   */
  operationIds?: Partial<Record<'list' | 'create' | 'get' | 'update' | 'delete', string>>;
  /** Collection path, e.g. `/v1/services`; with a `parent`, the path of its records only. */
  path: string;
  /** The parent record its records live under; see `ParentDef`. */
  parent?: ParentDef;
  /**
   * Types of other resources whose records name a record of this one without living under it
   * and keep it from being deleted while they do (409 STILL_REFERENCED): a status page's events.
   */
  deleteRefusedWhileNamedBy?: readonly string[];
  /** Read model table the list and get queries read. */
  readTable: string;
  attributes: Record<string, AttributeDef>;
  /**
   * Members a create or update body may carry that are never stored nor answered (an alert
   * route's `request_id`, the key its rule update's status is read by): validated as attributes
   * are (a 422 names them), handed with the attributes to the definition's rules, which act on
   * them; the writer stores `attributes` only. The OpenAPI document lists them in the request
   * bodies, never in the answers.
   */
  inputOnlyAttributes?: Record<string, AttributeDef>;
  relationships?: Record<string, RelationshipDef>;
  /** Default sort when the client gives none (spec, Jun 15 2026: ascending). */
  defaultSort: string;
  /** Cursor pagination (`page[after]`/`page[before]`) is switched on for this list. */
  cursor?: boolean;
  /** Verbs served; used by the OpenAPI document. */
  operations: readonly ('list' | 'create' | 'get' | 'update' | 'delete')[];
  /**
   * The HTTP method of `update` (default `put`): `patch` where the reference declares its update
   * as PATCH (`PATCH /v1/alert_events/{id}`), `both` where it declares both (`/v1/alert_routes/{id}`).
   * Either way the body holds the attributes to change.
   */
  updateMethod?: 'put' | 'patch' | 'both';
  /**
   * Also served: `POST <path>/bulk_upsert` and `POST <path>/bulk_delete`, keyed on `external_id`
   * and pruning by `managed_by` (both attributes are then required). Under a parent, at the
   * nested collection (`/v1/catalogs/{catalog_id}/entities/bulk_upsert`): one parent's records.
   */
  bulk?: boolean;
  /**
   * List parameters the reference names otherwise (edge connectors' `page`, `per_page`, `status`),
   * each taken as the JSON:API one it names (`page[number]`); the JSON:API one wins when both come.
   */
  queryAliases?: Record<string, string>;
  /** Other `data.type` spellings the hosted API's clients send (its Terraform provider's `edge_connector-actions`), taken as `type`. */
  typeAliases?: readonly string[];
  /**
   * A member whose object the reference's requests may send the attributes in instead of a JSON:API
   * document (`{"action": {...}}`, edge connector actions); both forms are taken.
   */
  requestEnvelope?: string;
  /**
   * The reference declares the request body as the bare attributes object (status page templates):
   * a body without `data` is read as the attributes. The JSON:API document is taken too.
   */
  bareRequest?: boolean;
  /**
   * Members a bulk upsert item takes beside the attributes (the reference's catalog `fields`): listed
   * in the bulk document's OpenAPI schema; the definition's `bulkInput` turns them into attributes.
   */
  bulkItemMembers?: Record<string, AttributeDef>;
  /** Filters that are not plain attributes, e.g. `filter[search]`, `filter[slug]`. */
  extraFilters?: Record<string, { description: string }>;
  /**
   * List filters named otherwise than any attribute, on a column of the read model (`column`): the
   * reference's `filter[team_ids]` of escalation policies, on `group_ids`. Each is declared like an
   * attribute (type, `filter` operators), parsed, turned into SQL and listed among the list's
   * OpenAPI parameters as one is; never answered, written, sorted on or searched.
   */
  listFilters?: Record<string, AttributeDef>;
  /**
   * The attribute that also names a record in `{id}` besides its uuid (unique in an
   * organization): `slug` when the resource has one, else none unless declared (alerts: `short_id`).
   */
  recordKey?: string;
}

/** The attribute a non-uuid `{id}` is looked up by, or null. */
export const recordKeyOf = (schema: ResourceSchema): string | null => schema.recordKey ?? ('slug' in schema.attributes ? 'slug' : null);

/** Attributes every resource has and no client writes. */
export const TIMESTAMP_ATTRIBUTES: Record<string, AttributeDef> = {
  created_at: { type: 'date-time', writable: false, filter: true, sortable: true },
  updated_at: { type: 'date-time', writable: false, filter: true, sortable: true },
};

export function defineResource<S extends ResourceSchema>(schema: S): S {
  const missing = ['external_id', 'managed_by'].filter((name) => !(name in schema.attributes));
  if (schema.bulk && missing.length) throw new Error(`${schema.type}: bulk operations need the attributes ${missing.join(', ')}`);
  if (schema.parent) checkParent(schema, schema.parent);
  if (schema.listFilters) checkListFilters(schema, schema.listFilters);
  // REDACTED replaces the value: only a string keeps its declared type (and its event contract).
  const sensitive = Object.entries(schema.attributes).find(([, def]) => def.sensitive && def.type !== 'string');
  if (sensitive) throw new Error(`${schema.type}: the sensitive attribute ${sensitive[0]} must be a string`);
  if (schema.inputOnlyAttributes) checkInputOnly(schema, schema.inputOnlyAttributes);
  return {
    ...schema,
    attributes: { ...schema.attributes, ...TIMESTAMP_ATTRIBUTES },
  };
}

function checkParent(schema: ResourceSchema, parent: ParentDef): void {
  const def = schema.attributes[parent.attribute];
  if (!def) throw new Error(`${schema.type}: the parent attribute ${parent.attribute} must be declared`);
  if ((def.writable ?? true) === true) throw new Error(`${schema.type}: the parent attribute ${parent.attribute} must not be writable on update`);
  // Parents are named by uuid (users by integer): a malformed id in a filter must be a 400, never reach the column.
  if (parent.integerIds ? def.type !== 'integer' : def.format !== 'uuid') {
    throw new Error(`${schema.type}: the parent attribute ${parent.attribute} must be declared ${parent.integerIds ? 'an integer' : 'with format uuid'}`);
  }
  if (parent.attributes && !parent.readTable) throw new Error(`${schema.type}: the parent's attributes need its readTable`);
  const clash = Object.keys(parent.attributes ?? {}).find((name) => name in schema.attributes);
  if (clash) throw new Error(`${schema.type}: the parent attribute ${clash} hides an attribute of the resource`);
  // A page's order and cursors are the record's own columns.
  const sorted = Object.entries(parent.attributes ?? {}).find(([, def]) => def.sortable);
  if (sorted) throw new Error(`${schema.type}: the parent attribute ${sorted[0]} filters, it does not sort`);
}

function checkInputOnly(schema: ResourceSchema, inputs: Record<string, AttributeDef>): void {
  const clash = Object.keys(inputs).find((name) => name in schema.attributes || name in TIMESTAMP_ATTRIBUTES || name === 'id');
  if (clash) throw new Error(`${schema.type}: the input-only attribute ${clash} hides an attribute`);
  // Nothing stores, lists or fills them: a declaration saying otherwise would be a promise unkept.
  const stored = Object.entries(inputs).find(([, def]) => def.default !== undefined || def.column || def.filter || def.sortable || def.searchable || def.alwaysStored || def.derivedFrom || def.virtual || def.sensitive);
  if (stored) throw new Error(`${schema.type}: the input-only attribute ${stored[0]} is never stored: no default, column, filter, sort, search, derivation or sensitivity`);
}

function checkListFilters(schema: ResourceSchema, filters: Record<string, AttributeDef>): void {
  const names = [...Object.keys(schema.attributes), ...Object.keys(TIMESTAMP_ATTRIBUTES), ...Object.keys(schema.parent?.attributes ?? {})];
  const clash = Object.keys(filters).find((name) => names.includes(name));
  if (clash) throw new Error(`${schema.type}: the list filter ${clash} hides an attribute`);
  const odd = Object.entries(filters).find(([, def]) => !def.column || !def.filter || def.sortable || def.searchable || def.virtual);
  if (odd) throw new Error(`${schema.type}: the list filter ${odd[0]} needs a column and operators, and neither sorts, searches nor is virtual`);
}

/** A list filter named otherwise than any attribute (`ResourceSchema.listFilters`), if `name` is one. */
export function listFilterOf(schema: ResourceSchema, name: string): AttributeDef | undefined {
  const filters = schema.listFilters;
  return filters && Object.prototype.hasOwnProperty.call(filters, name) ? filters[name] : undefined;
}

/** A parent attribute the resource's lists filter on (`ParentDef.attributes`), if `name` is one. */
export function parentAttributeOf(schema: ResourceSchema, name: string): AttributeDef | undefined {
  const attributes = schema.parent?.attributes;
  return attributes && Object.prototype.hasOwnProperty.call(attributes, name) ? attributes[name] : undefined;
}

/** Where a resource's collection (list, create) is served: under its parent when it has one. */
export function collectionPath(schema: ResourceSchema): string {
  if (!schema.parent) return schema.path;
  const { path, param, segment } = schema.parent;
  return `${path}/{${param}}/${segment ?? schema.path.split('/').pop()}`;
}

export function columnOf(schema: ResourceSchema, attribute: string): string {
  return schema.attributes[attribute]?.column ?? listFilterOf(schema, attribute)?.column ?? attribute;
}

/** Objects and arrays of objects are stored as jsonb; arrays of scalars as native arrays. */
export function isJsonAttribute(def: AttributeDef): boolean {
  return def.type === 'object' || (def.type === 'array' && def.items?.type === 'object');
}
