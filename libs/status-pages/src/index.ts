export { StatusPagesModule } from './status-pages.module';
export { STATUS_PAGES_CONTEXT } from './status-pages.context';
export { COMPONENT_DEFINITIONS } from './components/components.module';
export { statusPageAnnouncementDefinition } from './announcements/status-page-announcement.schema';
export { TXT_RESOLVER, type TxtResolver } from './verified-domains/txt-resolver';
