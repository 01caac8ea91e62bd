import { documentContent, errorsResponse, responseWithSecret } from '@taproot/json-api';
import { EMAIL_VERIFICATION_PATHS } from './email-addresses/email-addresses.openapi';
import { OAUTH_APPLICATIONS_OPENAPI } from './oauth/applications';

/** Operations beyond the declared CRUD: API key rotation and PATCH (reference: rotateApiKey). */
const API_KEY_EXTRA = {
  schemas: {
    api_key_with_token_response: responseWithSecret('api_keys', 'api_key', { name: 'token', description: 'The token (only shown once)' }),
    rotate_api_key: {
      type: 'object',
      required: ['data'],
      properties: {
        data: {
          type: 'object',
          required: ['type', 'attributes'],
          properties: {
            type: { type: 'string', enum: ['api_keys'] },
            attributes: {
              type: 'object',
              additionalProperties: false,
              properties: {
                expires_at: { type: 'string', format: 'date-time', nullable: true },
                grace_period_minutes: { type: 'integer', minimum: 0, maximum: 1440, default: 1440 },
              },
            },
          },
        },
      },
    },
  },
  paths: {
    '/v1/api_keys': {
      post: {
        operationId: 'createApiKey',
        summary: 'Creates an API key; the token is in this response only',
        tags: ['ApiKeys'],
        requestBody: { required: true, ...documentContent('new_api_key') },
        responses: {
          '201': { description: 'API key created', ...documentContent('api_key_with_token_response') },
          '400': errorsResponse('malformed request'),
          '401': errorsResponse('unauthorized'),
          '403': errorsResponse('forbidden'),
          '415': errorsResponse('request body is not application/vnd.api+json'),
          '422': errorsResponse('invalid'),
        },
      },
    },
    '/v1/api_keys/{id}': {
      patch: {
        operationId: 'patchApiKey',
        summary: 'Update an API key (same as PUT)',
        tags: ['ApiKeys'],
        requestBody: { required: true, ...documentContent('update_api_key') },
        responses: { '200': { description: 'API key updated', ...documentContent('api_key_response') }, '404': errorsResponse('not found'), '422': errorsResponse('invalid') },
      },
    },
    '/v1/api_keys/{id}/rotate': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      post: {
        operationId: 'rotateApiKey',
        summary: 'Rotate an API key (self only); the old token works until grace_period_ends_at (default 24 h)',
        tags: ['ApiKeys'],
        requestBody: { required: false, ...documentContent('rotate_api_key') },
        responses: {
          '200': { description: 'API key rotated; the new token is shown once', ...documentContent('api_key_with_token_response') },
          '403': errorsResponse('a key may only rotate itself'),
          '404': errorsResponse('not found'),
          '422': errorsResponse('invalid'),
        },
      },
    },
  },
};

/** The caller's own user (reference: getCurrentUser); a key without a user has none (404). */
const CURRENT_USER_PATH = {
  '/v1/users/me': {
    get: {
      operationId: 'getCurrentUser',
      summary: 'Get current user',
      tags: ['Users'],
      responses: {
        '200': { description: 'user found', ...documentContent('user_response') },
        '401': errorsResponse('responds with unauthorized for invalid token'),
        '404': errorsResponse('the token belongs to an organization-wide or team key, which has no user (code NO_CURRENT_USER)'),
      },
    },
  },
};

/** The identity context's OpenAPI beyond its declared resources. */
export const IDENTITY_OPENAPI = {
  schemas: { ...API_KEY_EXTRA.schemas, ...OAUTH_APPLICATIONS_OPENAPI.schemas },
  paths: { ...API_KEY_EXTRA.paths, ...OAUTH_APPLICATIONS_OPENAPI.paths, ...CURRENT_USER_PATH, ...EMAIL_VERIFICATION_PATHS },
};
