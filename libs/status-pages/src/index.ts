export { StatusPagesModule } from './status-pages.module';
export { STATUS_PAGES_CONTEXT } from './status-pages.context';
export { PublicPageReader } from './public-page/public-page.reader';
export { statusPageDefinition, statusPageSchema } from './status-pages/status-page.schema';
export { UNDER_STATUS_PAGE } from './status-pages/under-status-page';
export { BUILT_IN_STATUSES, type BuiltInStatusSlug } from './statuses/built-in-statuses';
export { TXT_RESOLVER, type TxtResolver } from './verified-domains/txt-resolver';
