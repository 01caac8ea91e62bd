import { errorsResponse } from '@taproot/json-api';

/**
 * What `/v1/openapi.json` says of the PagerDuty Events API v2 routes (docs/pagerduty-events.md):
 * PagerDuty's request and response bodies, plain JSON.
 */
const JSON_MEDIA = 'application/json';
const text = (description: string) => ({ type: 'string', description });
const LINKS = { type: 'array', items: { type: 'object', required: ['href'], properties: { href: { type: 'string' }, text: { type: 'string' } } } };

const ALERT_EVENT = {
  type: 'object',
  required: ['routing_key', 'event_action'],
  properties: {
    routing_key: text("The alert source's secret"),
    event_action: { type: 'string', enum: ['trigger', 'acknowledge', 'resolve'] },
    dedup_key: { type: 'string', maxLength: 255, description: 'The alert deduplication key (required to acknowledge or resolve; generated for a trigger without one)' },
    payload: {
      type: 'object',
      required: ['summary', 'source', 'severity'],
      properties: {
        summary: { type: 'string', maxLength: 1024 },
        source: text('The affected system'),
        severity: { type: 'string', enum: ['critical', 'error', 'warning', 'info'] },
        timestamp: { type: 'string', format: 'date-time' },
        component: { type: 'string' },
        group: { type: 'string' },
        class: { type: 'string' },
        custom_details: { description: "Free-form details: the alert's description" },
      },
      description: 'Required for trigger',
    },
    images: { type: 'array', items: { type: 'object', required: ['src'], properties: { src: { type: 'string' }, href: { type: 'string' }, alt: { type: 'string' } } } },
    links: LINKS,
    client: { type: 'string' },
    client_url: { type: 'string' },
  },
};

const CHANGE_EVENT = {
  type: 'object',
  required: ['routing_key', 'payload'],
  properties: {
    routing_key: text("The alert source's secret"),
    payload: {
      type: 'object',
      required: ['summary'],
      properties: { summary: { type: 'string', maxLength: 1024 }, timestamp: { type: 'string', format: 'date-time' }, source: { type: 'string' }, custom_details: {} },
    },
    links: LINKS,
  },
};

const json = (description: string, schema: object) => ({ description, content: { [JSON_MEDIA]: { schema } } });
const SUCCESS = { type: 'object', required: ['status', 'message'], properties: { status: { type: 'string', enum: ['success'] }, message: { type: 'string' }, dedup_key: { type: 'string' } } };
const INVALID = {
  type: 'object',
  required: ['status', 'message', 'errors'],
  properties: { status: { type: 'string', enum: ['invalid event'] }, message: { type: 'string' }, errors: { type: 'array', items: { type: 'string' } } },
};

const route = (operationId: string, summary: string, schema: object, acceptedBody: string) => ({
  post: {
    operationId,
    summary,
    tags: ['AlertSources'],
    security: [],
    requestBody: { required: true, content: { [JSON_MEDIA]: { schema } } },
    responses: {
      '202': json(acceptedBody, SUCCESS),
      // A body the api's parser refuses (malformed JSON) is answered before the route, as a JSON:API error document.
      '400': {
        description: 'invalid event, unknown routing key or disabled alert source (PagerDuty\'s body; errors name the problems), or malformed JSON (a JSON:API error document): nothing is stored',
        content: { [JSON_MEDIA]: { schema: INVALID }, ...errorsResponse('').content },
      },
      '413': errorsResponse('body larger than 1 MB'),
      '415': errorsResponse('body is not JSON'),
      '429': json("too many requests from this address, or more than the alert source's alerts a minute", { type: 'object', properties: { error: { type: 'string' } } }),
    },
  },
});

export const PAGERDUTY_EVENTS_OPENAPI = {
  schemas: {},
  paths: {
    '/v2/enqueue': route('enqueuePagerDutyEvent', 'PagerDuty Events API v2: trigger, acknowledge or resolve an alert of the alert source whose secret is the routing key', ALERT_EVENT, '{"status":"success","message":"Event processed","dedup_key":...}'),
    '/v2/change/enqueue': route('enqueuePagerDutyChangeEvent', 'PagerDuty Events API v2 change event: recorded as a resolved alert of the alert source', CHANGE_EVENT, '{"status":"success","message":"Change event processed"}'),
  },
};
