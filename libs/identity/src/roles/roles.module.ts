import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { ROLE_RESOURCES } from './role-definitions';

/** `/v1/roles` and `/v1/on_call_roles`: their controllers and read-model projections. */
@Module({
  controllers: ROLE_RESOURCES.map((definition) => resourceController(definition)),
})
export class RolesModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    for (const definition of ROLE_RESOURCES) this.projections.inline(new ResourceListProjection(definition));
  }
}
