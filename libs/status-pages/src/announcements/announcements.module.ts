import { Module } from '@nestjs/common';
import { resourceController } from '@taproot/resources';
import { statusPageAnnouncementDefinition } from './status-page-announcement.schema';

/** Status page announcements on the generic path; read through a view of their table, so no projection (docs/status-pages.md). */
@Module({ controllers: [resourceController(statusPageAnnouncementDefinition)] })
export class AnnouncementsModule {}
