import { registerOrganizationSeeder } from '@taproot/identity';
import type { ContextDescriptor } from '@taproot/runtime';
import { STATUS_PAGES_MIGRATIONS } from './migrations';
import { StatusPagesModule } from './status-pages.module';
import { seedBuiltInStatuses } from './statuses/built-in-statuses';

// Every new organization has the built-in component statuses from the start.
registerOrganizationSeeder((manager, organizationId) => seedBuiltInStatuses(manager, [organizationId], new Date()));

export const STATUS_PAGES_CONTEXT: ContextDescriptor = { name: 'status-pages', module: StatusPagesModule, migrations: STATUS_PAGES_MIGRATIONS, resources: [] };
