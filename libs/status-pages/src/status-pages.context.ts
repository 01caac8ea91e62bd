import { registerOrganizationSeeder } from '@taproot/identity';
import { registerSnapshotEvents } from '@taproot/resources';
import type { ContextDescriptor } from '@taproot/runtime';
import { ANNOUNCEMENTS_ERRORS } from './announcements/errors';
import { statusPageAnnouncementSchema } from './announcements/status-page-announcement.schema';
import { COMPONENTS_ERRORS } from './components/errors';
import { statusPageComponentGroupSchema } from './components/status-page-component-group.schema';
import { statusPageComponentSchema } from './components/status-page-component.schema';
import { STATUS_PAGES_MIGRATIONS } from './migrations';
import { PublicPageFastPath } from './public-page/public-page.fast-path';
import { STATUS_PAGE_EVENT_ERRORS } from './status-page-events/status-page-event-errors';
import { statusPageEventSchema } from './status-page-events/status-page-event.schema';
import { StatusPagesModule } from './status-pages.module';
import { STATUS_PAGES_ERRORS } from './status-pages/status-page-errors';
import { STATUS_PAGE_RESOURCES } from './status-pages/status-pages-resources.module';
import { seedBuiltInStatuses } from './statuses/built-in-statuses';
import { VERIFIED_DOMAINS_ERRORS } from './verified-domains/errors';
import { verifiedDomainSchema } from './verified-domains/verified-domain.schema';
import { VERIFIED_DOMAINS_OPENAPI } from './verified-domains/verified-domains.openapi';

/** Components and groups, announcements and verified domains (docs/status-pages.md). */
const S2_SCHEMAS = [statusPageComponentGroupSchema, statusPageComponentSchema, statusPageAnnouncementSchema, verifiedDomainSchema];

// Every new organization has the built-in component statuses from the start.
registerOrganizationSeeder((manager, organizationId) => seedBuiltInStatuses(manager, [organizationId], new Date()));

export const STATUS_PAGES_CONTEXT: ContextDescriptor = {
  name: 'status-pages',
  module: StatusPagesModule,
  migrations: STATUS_PAGES_MIGRATIONS,
  resources: [...STATUS_PAGE_RESOURCES.map((d) => d.schema), statusPageEventSchema, ...S2_SCHEMAS],
  errors: { ...STATUS_PAGES_ERRORS, ...STATUS_PAGE_EVENT_ERRORS, ...COMPONENTS_ERRORS, ...ANNOUNCEMENTS_ERRORS, ...VERIFIED_DOMAINS_ERRORS },
  openapi: { paths: { ...VERIFIED_DOMAINS_OPENAPI.paths } },
  // A password page's form (public-page.password.ts): outside /v1, which keeps refusing form bodies.
  inbound: { accepts: () => false, raw: { mediaTypes: ['application/x-www-form-urlencoded'], bodyLimit: 4096 } },
  // A kept public page is answered before the api's hooks and Nest (docs/status-pages.md, Served from memory).
  earlyRequestHandlers: [PublicPageFastPath],
  registerEventContracts() {
    // Statuses are seeded, never written through the API: no events.
    for (const { schema } of STATUS_PAGE_RESOURCES) if (schema.operations.includes('create')) registerSnapshotEvents(schema);
    for (const schema of S2_SCHEMAS) registerSnapshotEvents(schema);
    registerSnapshotEvents(statusPageEventSchema);
  },
};
