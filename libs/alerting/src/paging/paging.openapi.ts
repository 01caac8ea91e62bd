import { documentContent, errorsResponse, requestDocumentSchema } from '@taproot/json-api';
import { pageSchema } from './pages/page.schema';

const TOKEN = { name: 'token', in: 'query', required: true, schema: { type: 'string' }, description: 'The signed token of the link in a notification' };
const acknowledgement = (operationId: string, summary: string) => ({
  operationId,
  summary,
  tags: ['Alerts'],
  security: [],
  responses: {
    '200': { description: 'the alert, acknowledged (unchanged when it already was)', ...documentContent('alert_response') },
    '404': errorsResponse('not a valid link, or it expired'),
    '410': errorsResponse('the link was used already (code ACKNOWLEDGE_LINK_USED)'),
    '422': errorsResponse('the alert is resolved: a link cannot reopen it'),
  },
});

/** Paging's routes in `/v1/openapi.json`: `POST /v1/pages` (body new_page) and the one-click acknowledge link. */
export const PAGING_OPENAPI = {
  schemas: { new_page: requestDocumentSchema(pageSchema, 'create') },
  paths: {
    '/v1/pages': {
      post: {
        operationId: 'createPage',
        summary: 'Page a team, service, escalation policy, functionality or user now (an alert that pages them)',
        tags: ['Alerts'],
        requestBody: { required: true, ...documentContent('new_page') },
        responses: {
          '201': { description: 'the alert that pages the targets', ...documentContent('alert_response') },
          '401': errorsResponse('unauthorized'),
          '403': errorsResponse('the caller may not create alerts'),
          '415': errorsResponse('request body is not application/vnd.api+json'),
          '422': errorsResponse('no target, an unknown target, or a functionality without an escalation policy (pointer: the attribute)'),
          '429': errorsResponse('more than the alert creation limit a minute for this API key'),
        },
      },
    },
    '/v1/alert_acknowledgements': {
      parameters: [TOKEN],
      get: acknowledgement('acknowledgeAlertByLink', "Acknowledge a notification's alert with its one-click link (works once)"),
      post: acknowledgement('acknowledgeAlertByLinkPost', 'The same, for clients that POST'),
    },
  },
};
