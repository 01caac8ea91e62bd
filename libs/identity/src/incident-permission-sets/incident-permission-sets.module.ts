import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { INCIDENT_PERMISSION_SET_RESOURCES } from './incident-permission-set.schema';

/** `/v1/incident_permission_sets` and their booleans and resources (docs/incident-permission-sets.md). */
@Module({
  controllers: INCIDENT_PERMISSION_SET_RESOURCES.map((definition) => resourceController(definition)),
})
export class IncidentPermissionSetsModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    for (const definition of INCIDENT_PERMISSION_SET_RESOURCES) this.projections.inline(new ResourceListProjection(definition));
  }
}
