import { registerSnapshotEvents } from '@taproot/resources';
import type { ContextDescriptor } from '@taproot/runtime';
import { STATUS_PAGES_MIGRATIONS } from './migrations';
import { STATUS_PAGE_EVENT_ERRORS } from './status-page-events/status-page-event-errors';
import { statusPageEventSchema } from './status-page-events/status-page-event.schema';
import { StatusPagesModule } from './status-pages.module';

export const STATUS_PAGES_CONTEXT: ContextDescriptor = {
  name: 'status-pages',
  module: StatusPagesModule,
  migrations: STATUS_PAGES_MIGRATIONS,
  resources: [statusPageEventSchema],
  errors: { ...STATUS_PAGE_EVENT_ERRORS },
  registerEventContracts() {
    registerSnapshotEvents(statusPageEventSchema);
  },
};
