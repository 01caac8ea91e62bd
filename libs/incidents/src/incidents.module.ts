import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { incidentRoleDefinition } from './incident-roles/incident-role.schema';
import { subStatusDefinition } from './sub-statuses/sub-status.schema';

export const INCIDENTS_RESOURCES = [subStatusDefinition, incidentRoleDefinition];

/** The incidents context: the incident lifecycle and what responders fill in (sub-statuses, roles). */
@Module({
  controllers: INCIDENTS_RESOURCES.map((definition) => resourceController(definition)),
})
export class IncidentsModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  async onModuleInit(): Promise<void> {
    for (const definition of INCIDENTS_RESOURCES) await this.projections.register(new ResourceListProjection(definition));
  }
}
