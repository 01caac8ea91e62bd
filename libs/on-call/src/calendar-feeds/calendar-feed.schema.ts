import { defineResource } from '@taproot/json-api';

/**
 * A calendar feed (Taproot only): the secret iCalendar URL of a schedule's shifts, or of one
 * user's shifts across every schedule. Served by its own routes (calendar-feeds.controller.ts);
 * declared for its documents, the create body's validation and its events' contract. The token
 * is never stored; `url` (which holds it) is answered by create and rotate only.
 */
export const calendarFeedSchema = defineResource({
  type: 'calendar_feeds',
  singular: 'calendar_feed',
  path: '/v1/calendar_feeds',
  readTable: 'calendar_feeds',
  defaultSort: 'created_at',
  operations: [],
  attributes: {
    kind: { type: 'string', enum: ['schedule', 'user'], required: true, writable: 'create', description: "schedule: one schedule's shifts; user: the calling user's shifts in every schedule" },
    schedule_id: { type: 'string', nullable: true, writable: 'create', description: 'The schedule of a schedule feed (required with kind schedule)' },
    user_id: { type: 'integer', nullable: true, writable: false, description: 'The user of a user feed: the user who created it' },
    url: { type: 'string', writable: false, description: 'The secret iCalendar URL (text/calendar), answered only when the feed is created or rotated' },
    created_at: { type: 'date-time', writable: false, sortable: true, description: 'When the feed was created' },
    rotated_at: { type: 'date-time', nullable: true, writable: false, description: 'When its URL was last replaced' },
  },
});
