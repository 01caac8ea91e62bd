export { StatusPagesModule } from './status-pages.module';
export { STATUS_PAGES_CONTEXT } from './status-pages.context';
