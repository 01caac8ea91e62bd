import { defineResource, type AttributeDef } from '@taproot/json-api';

/** Grant types an application may have: what the provider lets each kind of client use. */
export const APPLICATION_GRANT_TYPES = ['client_credentials', 'authorization_code'] as const;

/** The attributes of an OAuth application as reads show it (never its secret). */
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
    description: 'The name of the application',
  },
  grant_types: {
    type: 'array',
    items: { type: 'string', enum: APPLICATION_GRANT_TYPES },
    writable: 'create',
    description: 'The grant types of the application; applications created here use client_credentials (the default)',
  },
  scope: {
    type: 'string',
    required: true,
    alwaysStored: true,
    minLength: 1,
    maxLength: 4000,
    description: 'Space-separated scopes the application may request (docs/oauth.md); at least one resource scope or all for client credentials',
  },
  client_id: { type: 'string', writable: false, description: 'The OAuth client_id (also the resource id)' },
  service_user_id: {
    type: 'integer',
    nullable: true,
    writable: false,
    description: 'The service user a client-credentials application acts as (users.id); null for applications users authorize',
  },
  revoked_at: { type: 'date-time', nullable: true, writable: false, filter: ['null', 'not_null'], description: 'When the application was revoked' },
} satisfies Record<string, AttributeDef>;

/** `/v1/oauth_applications`: the organization's OAuth applications, read from `oauth_applications_view`. */
export const oauthApplicationSchema = defineResource({
  type: 'oauth_applications',
  singular: 'oauth_application',
  path: '/v1/oauth_applications',
  readTable: 'oauth_applications_view',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes,
});

/** Create payloads: only client-credentials applications are created through the admin API. */
export const newOAuthApplicationSchema = defineResource({
  ...oauthApplicationSchema,
  attributes: {
    ...attributes,
    grant_types: { ...attributes.grant_types, items: { type: 'string', enum: ['client_credentials'] }, minLength: 1, default: ['client_credentials'] },
  },
});
