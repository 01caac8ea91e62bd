import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { causeDefinition } from './causes/cause.schema';
import { environmentDefinition } from './environments/environment.schema';
import { functionalityDefinition } from './functionalities/functionality.schema';
import { incidentTypeDefinition } from './incident-types/incident-type.schema';
import { serviceDefinition } from './services/service.schema';
import { severityDefinition } from './severities/severity.schema';

export const CATALOG_RESOURCES = [
  severityDefinition,
  serviceDefinition,
  environmentDefinition,
  functionalityDefinition,
  causeDefinition,
  incidentTypeDefinition,
];

/**
 * The catalog context: what incidents and alerts refer to (services, severities, and the
 * incident taxonomy: environments, functionalities, causes, incident types).
 */
@Module({
  controllers: CATALOG_RESOURCES.map((definition) => resourceController(definition)),
})
export class CatalogModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    for (const definition of CATALOG_RESOURCES) this.projections.inline(new ResourceListProjection(definition));
  }
}
