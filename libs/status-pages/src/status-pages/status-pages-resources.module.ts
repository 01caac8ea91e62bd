import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { statusDefinition } from '../statuses/status.schema';
import { StatusesController } from '../statuses/statuses.controller';
import { statusPageGroupDefinition } from '../teams/status-page-group.schema';
import { StatusPageTeamsController } from '../teams/status-page-teams.controller';
import { statusPageTemplateDefinition } from '../templates/status-page-template.schema';
import { statusPageDefinition } from './status-page.schema';

/** Resources on the generic controller; the statuses and team grants have their own. */
const CRUD_RESOURCES = [statusPageDefinition, statusPageTemplateDefinition];
/** Status pages, their templates and team grants, and the statuses: every declared resource of this part. */
export const STATUS_PAGE_RESOURCES = [...CRUD_RESOURCES, statusDefinition, statusPageGroupDefinition];

/** Status pages, their templates and team grants, and the component statuses, with their read models (docs/status-pages.md). */
@Module({ controllers: [...CRUD_RESOURCES.map((definition) => resourceController(definition)), StatusesController, StatusPageTeamsController] })
export class StatusPagesResourcesModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    // Statuses are seeded straight into their read model and never change: no projection.
    for (const definition of [statusPageDefinition, statusPageTemplateDefinition, statusPageGroupDefinition]) this.projections.inline(new ResourceListProjection(definition));
  }
}
