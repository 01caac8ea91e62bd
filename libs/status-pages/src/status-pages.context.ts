import type { ContextDescriptor } from '@taproot/runtime';
import { STATUS_PAGES_MIGRATIONS } from './migrations';
import { StatusPagesModule } from './status-pages.module';

export const STATUS_PAGES_CONTEXT: ContextDescriptor = { name: 'status-pages', module: StatusPagesModule, migrations: STATUS_PAGES_MIGRATIONS, resources: [] };
