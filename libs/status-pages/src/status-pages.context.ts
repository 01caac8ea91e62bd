import type { ContextDescriptor } from '@taproot/runtime';
import { StatusPagesModule } from './status-pages.module';

/** Status pages arrive in a later issue; the context already has its topic. */
export const STATUS_PAGES_CONTEXT: ContextDescriptor = { name: 'status-pages', module: StatusPagesModule, migrations: [], resources: [] };
