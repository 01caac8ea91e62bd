import { registerSnapshotEvents } from '@taproot/resources';
import type { ContextDescriptor } from '@taproot/runtime';
import { CALENDAR_FEED_EVENTS } from './calendar-feeds/calendar-feed-commands';
import { calendarFeedSchema } from './calendar-feeds/calendar-feed.schema';
import { CALENDAR_FEEDS_OPENAPI } from './calendar-feeds/calendar-feeds.openapi';
import { PATH_LEVELS_OPENAPI } from './escalation-levels/path-levels.openapi';
import { ON_CALL_ERRORS } from './errors';
import { ON_CALL_MIGRATIONS } from './migrations';
import { OnCallModule, ON_CALL_RESOURCES } from './on-call.module';
import { shiftCoverageRequestSchema } from './shift-coverage-requests/shift-coverage-request.schema';
import { SHIFT_COVERAGE_REQUESTS_OPENAPI } from './shift-coverage-requests/shift-coverage-requests.openapi';
import { SHIFTS_OPENAPI } from './shifts/shifts.openapi';
import { ONCALLS_OPENAPI } from './oncalls/oncalls.openapi';
import { ON_CALL_PAY_REPORTS_OPENAPI } from './on-call-pay-reports/on-call-pay-reports.openapi';

export const ON_CALL_CONTEXT: ContextDescriptor = {
  name: 'on-call',
  module: OnCallModule,
  migrations: ON_CALL_MIGRATIONS,
  // Coverage requests are served by their own controller (a create answers a list): declared for the generated list, get and delete.
  resources: [...ON_CALL_RESOURCES.map((d) => d.schema), shiftCoverageRequestSchema],
  errors: ON_CALL_ERRORS,
  openapi: {
    schemas: { ...SHIFTS_OPENAPI.schemas, ...CALENDAR_FEEDS_OPENAPI.schemas, ...SHIFT_COVERAGE_REQUESTS_OPENAPI.schemas, ...ONCALLS_OPENAPI.schemas },
    paths: { ...SHIFTS_OPENAPI.paths, ...CALENDAR_FEEDS_OPENAPI.paths, ...SHIFT_COVERAGE_REQUESTS_OPENAPI.paths, ...PATH_LEVELS_OPENAPI.paths, ...ONCALLS_OPENAPI.paths, ...ON_CALL_PAY_REPORTS_OPENAPI.paths },
  },
  // Each schedule resource publishes its lifecycle events (`schedule.created`, ...), each carrying the record's snapshot.
  registerEventContracts: () => {
    ON_CALL_RESOURCES.forEach((d) => registerSnapshotEvents(d.schema));
    // Calendar feeds' events carry the feed's snapshot (never its token).
    registerSnapshotEvents(calendarFeedSchema, [CALENDAR_FEED_EVENTS.rotated]);
    registerSnapshotEvents(shiftCoverageRequestSchema);
  },
};
