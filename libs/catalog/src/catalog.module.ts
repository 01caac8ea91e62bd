import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { catalogEntityDefinition } from './catalog-entities/catalog-entity-definition';
import { catalogEntityPropertyDefinition } from './catalog-entity-properties/catalog-entity-property.schema';
import { BUILT_IN_CATALOG_PROPERTIES_CONTROLLERS } from './catalog-properties/built-in-catalog-properties.controller';
import { catalogPropertyDefinition } from './catalog-properties/catalog-property-definition';
import { catalogDefinition } from './catalogs/catalog-definition';
import { CatalogChecklistTemplateActionsController } from './checklists/catalog-checklist-templates.controller';
import { catalogChecklistTemplateDefinition } from './checklists/catalog-checklist-template-definition';
import { catalogEntityChecklistDefinition } from './checklists/catalog-entity-checklist-definition';
import { TriggerCatalogChecklistTemplateHandler } from './checklists/trigger-catalog-checklist-template';
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
  catalogDefinition,
  catalogPropertyDefinition,
  catalogEntityDefinition,
  catalogEntityPropertyDefinition,
  catalogChecklistTemplateDefinition,
  catalogEntityChecklistDefinition,
];

/**
 * The catalog context: what incidents and alerts refer to (services, severities, and the
 * incident taxonomy: environments, functionalities, causes, incident types), and custom catalogs
 * with their properties and entities (docs/catalogs.md), and checklist templates auditing them
 * (docs/catalog-checklists.md).
 */
@Module({
  controllers: [...CATALOG_RESOURCES.map((definition) => resourceController(definition)), ...BUILT_IN_CATALOG_PROPERTIES_CONTROLLERS, CatalogChecklistTemplateActionsController],
  providers: [TriggerCatalogChecklistTemplateHandler],
})
export class CatalogModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    for (const definition of CATALOG_RESOURCES) this.projections.inline(new ResourceListProjection(definition));
  }
}
