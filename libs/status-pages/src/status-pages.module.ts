import { Module } from '@nestjs/common';
import { AnnouncementsModule } from './announcements/announcements.module';
import { ComponentsModule } from './components/components.module';
import { StatusPagesResourcesModule } from './status-pages/status-pages-resources.module';
import { VerifiedDomainsModule } from './verified-domains/verified-domains.module';

/** The status-pages bounded context (docs/status-pages.md). */
@Module({ imports: [StatusPagesResourcesModule, ComponentsModule, AnnouncementsModule, VerifiedDomainsModule] })
export class StatusPagesModule {}
