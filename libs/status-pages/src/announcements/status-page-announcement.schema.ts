import { defineResource, JsonApiError, type FilterOperator } from '@taproot/json-api';
import type { ResourceDefinition, Row } from '@taproot/resources';
import { STATUS_PAGE_CHILD_PERMISSION, STATUS_PAGE_ID, UNDER_STATUS_PAGE } from '../status-pages/under-status-page';
import { AnnouncementsErrorCode } from './errors';

const RANGE: readonly FilterOperator[] = ['gt', 'gte', 'lt', 'lte'];

/**
 * An announcement of a status page (the hosted API's `status_page_announcement`): a message the
 * public page shows from `starts_at` until `ends_at` while enabled. Created and listed under the
 * page, read, changed and deleted at `/v1/announcements/{id}` (docs/status-pages.md, "Announcements").
 * Read through a view of the write table: `filter[active]` depends on the time of the read.
 */
export const statusPageAnnouncementSchema = defineResource({
  type: 'status_page_announcements',
  singular: 'status_page_announcement',
  path: '/v1/announcements',
  readTable: 'status_page_announcements_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: UNDER_STATUS_PAGE,
  attributes: {
    status_page_id: { ...STATUS_PAGE_ID, filter: ['eq', 'in'] },
    title: { type: 'string', required: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'Title of the announcement' },
    body: { type: 'string', required: true, minLength: 1, maxLength: 20000, searchable: true, description: 'Body of the announcement (the message)' },
    starts_at: { type: 'date-time', alwaysStored: true, filter: RANGE, sortable: true, description: 'When the page starts showing it; left out, at its creation' },
    ends_at: { type: 'date-time', nullable: true, filter: [...RANGE, 'null', 'not_null'], sortable: true, description: 'When the page stops showing it, after starts_at; null: until disabled or deleted' },
    enabled: { type: 'boolean', default: true, alwaysStored: true, filter: ['eq'], description: 'Whether the page shows it (between starts_at and ends_at)' },
    notify_subscribers: { type: 'boolean', default: true, alwaysStored: true, writable: 'create', description: 'Whether the status page subscribers are told of it' },
    published_at: { type: 'date-time', writable: false, description: 'When the announcement was posted' },
    user_id: { type: 'integer', nullable: true, writable: false, description: 'ID of the user who posted the announcement; null for a key without a user' },
  },
  listFilters: {
    active: { type: 'boolean', column: 'active', filter: ['eq'], description: 'true: the announcements the page shows now (enabled, started, not ended); false: the others' },
  },
});

/** `ends_at` after `starts_at`, as they will be stored (the database refuses the rest too). */
function checkPeriod(attributes: Row): Row {
  const { starts_at: startsAt, ends_at: endsAt } = attributes;
  if (endsAt == null) return attributes;
  // Stored values come back as Dates, sent ones as ISO strings.
  const [starts, ends] = [startsAt, endsAt].map((v) => (v instanceof Date ? v : new Date(String(v))));
  if (ends.getTime() <= starts.getTime()) {
    const detail = `ends_at (${ends.toISOString()}) must be after starts_at (${starts.toISOString()})`;
    throw JsonApiError.invalidAttributes([{ attribute: 'ends_at', detail, code: AnnouncementsErrorCode.EndsBeforeStarts }]);
  }
  return attributes;
}

export const statusPageAnnouncementDefinition: ResourceDefinition = {
  schema: statusPageAnnouncementSchema,
  context: 'status-pages',
  table: 'status_page_announcements',
  permission: STATUS_PAGE_CHILD_PERMISSION,
  rules: {
    beforeCreate: (attributes, ctx) =>
      checkPeriod({ ...attributes, starts_at: attributes.starts_at ?? ctx.now, published_at: ctx.now, user_id: ctx.userId == null ? null : Number(ctx.userId) }),
    beforeUpdate: (current, changes) => {
      checkPeriod({ starts_at: current.starts_at, ends_at: current.ends_at, ...changes });
      return changes;
    },
  },
};
