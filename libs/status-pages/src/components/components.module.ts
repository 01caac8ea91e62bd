import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { statusPageComponentGroupDefinition } from './status-page-component-group.schema';
import { statusPageComponentDefinition } from './status-page-component.schema';

export const COMPONENT_DEFINITIONS = [statusPageComponentGroupDefinition, statusPageComponentDefinition];

/** A status page's components and component groups on the generic path, with their read models (docs/status-pages.md). */
@Module({ controllers: COMPONENT_DEFINITIONS.map((definition) => resourceController(definition)) })
export class ComponentsModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    for (const definition of COMPONENT_DEFINITIONS) this.projections.inline(new ResourceListProjection(definition));
  }
}
