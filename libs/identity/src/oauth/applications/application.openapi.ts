import { buildOpenApiDocument, documentContent, errorsResponse, responseWithSecret } from '@taproot/json-api';
import { newOAuthApplicationSchema } from './application.schema';

/** The create payload as the declaration of creates builds it (client_credentials is the only grant type). */
const newApplication = (buildOpenApiDocument([newOAuthApplicationSchema], { title: '', version: '' }).components.schemas as Record<string, unknown>)
  .new_oauth_application;

/**
 * `/v1/oauth_applications` beyond the declared CRUD, merged into the served document: the answers
 * carrying the secret (create, rotate_secret), PATCH, and the create payload of client-credentials
 * applications.
 */
export const OAUTH_APPLICATIONS_OPENAPI = {
  schemas: {
    new_oauth_application: newApplication,
    oauth_application_with_secret_response: responseWithSecret('oauth_applications', 'oauth_application', { name: 'client_secret', description: 'The client secret (only shown once)' }),
  },
  paths: {
    '/v1/oauth_applications': {
      post: {
        operationId: 'createOauthApplication',
        summary: 'Creates a client-credentials application and its service user; the secret is in this response only',
        tags: ['OauthApplications'],
        requestBody: { required: true, ...documentContent('new_oauth_application') },
        responses: {
          '201': { description: 'application created', ...documentContent('oauth_application_with_secret_response') },
          '400': errorsResponse('malformed request'),
          '401': errorsResponse('unauthorized'),
          '403': errorsResponse('forbidden'),
          '415': errorsResponse('request body is not application/vnd.api+json'),
          '422': errorsResponse('invalid (e.g. an unknown scope)'),
        },
      },
    },
    '/v1/oauth_applications/{id}': {
      patch: {
        operationId: 'patchOauthApplication',
        summary: 'Update an OAuth application (same as PUT)',
        tags: ['OauthApplications'],
        requestBody: { required: true, ...documentContent('update_oauth_application') },
        responses: {
          '200': { description: 'application updated', ...documentContent('oauth_application_response') },
          '404': errorsResponse('not found'),
          '409': errorsResponse('revoked'),
          '422': errorsResponse('invalid'),
        },
      },
    },
    '/v1/oauth_applications/{id}/rotate_secret': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      post: {
        operationId: 'rotateOauthApplicationSecret',
        summary: 'Replace the client secret; the old one stops working at once',
        tags: ['OauthApplications'],
        responses: {
          '200': { description: 'new secret, shown once', ...documentContent('oauth_application_with_secret_response') },
          '404': errorsResponse('not found'),
          '409': errorsResponse('revoked, or a public client without a secret'),
        },
      },
    },
  },
};
