import { buildOpenApiDocument, documentContent, errorsResponse } from '@taproot/json-api';
import { calendarFeedSchema } from './calendar-feed.schema';

const ID = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];
const TAGS = ['CalendarFeeds'];
const refused = { '401': errorsResponse('unauthorized'), '403': errorsResponse('the caller may not read schedules') };
const one = (description: string) => ({ description, ...documentContent('calendar_feed_response') });

/**
 * `/v1/calendar_feeds` (Taproot only: the reference has no calendar feeds). The feed itself,
 * `GET /calendar/{token}.ics`, is text/calendar outside /v1 and not part of the JSON:API document.
 */
function calendarFeedsOpenApi() {
  const generated = buildOpenApiDocument([calendarFeedSchema], { title: 'calendar feeds', version: '1' });
  return {
    schemas: generated.components.schemas,
    paths: {
      '/v1/calendar_feeds': {
        get: {
          operationId: 'listCalendarFeeds',
          summary: "List the organization's schedule feeds and the caller's own user feed (never their URLs)",
          tags: TAGS,
          responses: { '200': { description: 'calendar feeds', ...documentContent('calendar_feed_list') }, ...refused },
        },
        post: {
          operationId: 'createCalendarFeed',
          summary: "Creates a schedule's or the calling user's iCalendar feed, or replaces its URL when it has one",
          tags: TAGS,
          requestBody: { required: true, ...documentContent('new_calendar_feed') },
          responses: {
            '200': one('the existing feed with a new URL: the previous one stopped working'),
            '201': one('the new feed, with its secret URL (shown once)'),
            ...refused,
            '404': errorsResponse('no such schedule'),
            '422': errorsResponse('invalid attributes, or a user feed asked by a key without a user'),
          },
        },
      },
      '/v1/calendar_feeds/{id}': {
        parameters: ID,
        get: { operationId: 'getCalendarFeed', summary: 'Retrieves a calendar feed (never its URL)', tags: TAGS, responses: { '200': one('calendar feed found'), ...refused, '404': errorsResponse('no such feed') } },
        delete: {
          operationId: 'deleteCalendarFeed',
          summary: 'Revokes a calendar feed: its URL answers 404 from now on',
          tags: TAGS,
          responses: { '200': one('calendar feed revoked'), ...refused, '404': errorsResponse('no such feed') },
        },
      },
      '/v1/calendar_feeds/{id}/rotate': {
        parameters: ID,
        post: {
          operationId: 'rotateCalendarFeed',
          summary: "Replaces a calendar feed's URL: the previous one stops working at once",
          tags: TAGS,
          responses: { '200': one('the feed with its new secret URL (shown once)'), ...refused, '404': errorsResponse('no such feed') },
        },
      },
    },
  };
}

export const CALENDAR_FEEDS_OPENAPI = calendarFeedsOpenApi();
