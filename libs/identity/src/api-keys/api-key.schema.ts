import { defineResource, type AttributeDef } from '@taproot/json-api';

/** Wire kinds of the reference (`api_key.kind`); the spec calls `organization` "Global". */
export const API_KEY_KINDS = ['personal', 'team', 'organization'] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];
/** What the `kind` column holds: the spec's `global` for an organization-wide key. */
export type StoredApiKeyKind = 'personal' | 'team' | 'global';

export function toStoredKind(kind: ApiKeyKind): StoredApiKeyKind {
  return kind === 'organization' ? 'global' : kind;
}

export function toWireKind(kind: string): ApiKeyKind {
  return kind === 'global' ? 'organization' : (kind as ApiKeyKind);
}

/** Rotation grace when the request gives none: the spec's 24 hours (the reference says 30 min; the spec wins). */
export const DEFAULT_GRACE_PERIOD_MINUTES = 1440;
export const MAX_GRACE_PERIOD_MINUTES = 1440;
/** A rotation without `expires_at` gives the key 90 more days (reference, rotateApiKey). */
export const DEFAULT_ROTATION_LIFETIME_DAYS = 90;
/** `expires_at` is at most 5 years ahead (reference, createApiKey / updateApiKey). */
export const MAX_LIFETIME_YEARS = 5;

/** The attributes of the reference's `api_key`, as reads and events show them. */
const attributes = {
  name: {
    type: 'string',
    required: true,
    alwaysStored: true,
    minLength: 1,
    maxLength: 255,
    filter: ['eq', 'in'],
    sortable: true,
    searchable: true,
    description: 'The name of the API key',
  },
  description: { type: 'string', nullable: true, maxLength: 10_000, description: 'A description of the API key' },
  kind: {
    type: 'string',
    enum: API_KEY_KINDS,
    required: true,
    alwaysStored: true,
    writable: 'create',
    filter: ['eq', 'in', 'not_eq', 'not_in'],
    sortable: true,
    description: 'The kind of the API key',
  },
  expires_at: {
    type: 'date-time',
    nullable: true,
    required: true,
    filter: true,
    sortable: true,
    description: 'Expiration date',
  },
  grace_period_ends_at: { type: 'date-time', nullable: true, writable: false, description: 'Grace period end date' },
  last_used_at: { type: 'date-time', nullable: true, writable: false, filter: true, sortable: true, description: 'Date of last use' },
  role_id: { type: 'string', nullable: true, writable: 'create', filter: ['eq', 'in'], description: 'The role ID' },
  on_call_role_id: { type: 'string', nullable: true, writable: 'create', description: 'The on-call role ID' },
} satisfies Record<string, AttributeDef>;

/** The served resource: reads (`api_keys_view`, which holds no token material) and serialization. */
export const apiKeySchema = defineResource({
  type: 'api_keys',
  singular: 'api_key',
  path: '/v1/api_keys',
  readTable: 'api_keys_view',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes,
});

/**
 * Create payloads (`new_api_key`): the resource's attributes plus the input-only `group_id`.
 * Validated by `parseResourcePayload`, so an attribute of neither is a 422.
 */
export const newApiKeySchema = defineResource({
  ...apiKeySchema,
  attributes: {
    ...attributes,
    // Every key expires (reference: `new_api_key.required`); null is refused like a past date.
    expires_at: { ...attributes.expires_at, nullable: false },
    group_id: { type: 'string', nullable: true, writable: 'create', minLength: 1, description: "The group (team) ID. Required when kind is 'team'." },
  },
});

/** Attributes fixed at creation: an update naming one is refused with a precise 422. */
export const IMMUTABLE_API_KEY_ATTRIBUTES = ['kind', 'role_id', 'on_call_role_id', 'group_id'] as const;

/** Rotation payloads (`rotate_api_key`). */
export const rotateApiKeySchema = defineResource({
  ...apiKeySchema,
  attributes: {
    expires_at: { type: 'date-time', nullable: true, description: 'The new expiration date after rotation (ISO 8601)' },
    grace_period_minutes: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_GRACE_PERIOD_MINUTES,
      description: `How many minutes to keep the old token valid (default ${DEFAULT_GRACE_PERIOD_MINUTES})`,
    },
  } satisfies Record<string, AttributeDef>,
});

/**
 * The list's query declaration: the served attributes plus filter-only columns of the view
 * (`filter[user_id]`, `filter[group_ids]`) that never appear in a response, and the
 * clock-dependent `filter[active]` / `filter[expired]`, which the reader turns into
 * conditions on `expires_or_never`.
 */
export const apiKeyListSchema = defineResource({
  ...apiKeySchema,
  attributes: {
    ...attributes,
    user_id: { type: 'integer', nullable: true, writable: false, filter: ['eq', 'in'] },
    group_ids: { type: 'string', nullable: true, writable: false, column: 'group_id', filter: ['eq', 'in'] },
    expires_or_never: { type: 'date-time', writable: false },
  } satisfies Record<string, AttributeDef>,
  extraFilters: {
    active: { description: 'When true, return only non-expired keys' },
    expired: { description: 'When true, return only expired keys' },
  },
});
