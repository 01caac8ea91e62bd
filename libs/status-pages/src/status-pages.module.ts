import { Module } from '@nestjs/common';
import { AnnouncementsModule } from './announcements/announcements.module';
import { ComponentsModule } from './components/components.module';
import { PublicPageModule } from './public-page/public-page.module';
import { StatusPageEventsModule } from './status-page-events/status-page-events.module';
import { StatusPagesResourcesModule } from './status-pages/status-pages-resources.module';
import { VerifiedDomainsModule } from './verified-domains/verified-domains.module';

/** The status-pages bounded context (docs/status-pages.md). */
@Module({ imports: [StatusPagesResourcesModule, StatusPageEventsModule, ComponentsModule, AnnouncementsModule, VerifiedDomainsModule, PublicPageModule] })
export class StatusPagesModule {}
