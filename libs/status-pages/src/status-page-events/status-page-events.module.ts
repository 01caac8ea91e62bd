import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { statusPageEventDefinition } from './status-page-event.schema';

/** Incident status page events on the generic path, with their read model (docs/status-pages.md). */
@Module({ controllers: [resourceController(statusPageEventDefinition)] })
export class StatusPageEventsModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    this.projections.inline(new ResourceListProjection(statusPageEventDefinition));
  }
}
