import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { serviceDefinition } from './services/service.schema';
import { severityDefinition } from './severities/severity.schema';

export const CATALOG_RESOURCES = [severityDefinition, serviceDefinition];

/** The catalog context: what incidents and alerts refer to (services, severities, ...). */
@Module({
  controllers: CATALOG_RESOURCES.map((definition) => resourceController(definition)),
})
export class CatalogModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  async onModuleInit(): Promise<void> {
    for (const definition of CATALOG_RESOURCES) await this.projections.register(new ResourceListProjection(definition));
  }
}
