import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { alertFieldDefinition } from './alert-fields/alert-field.schema';
import { alertUrgencyDefinition } from './alert-urgencies/alert-urgency.schema';

export const ALERTING_RESOURCES = [alertUrgencyDefinition, alertFieldDefinition];

/** The alerting bounded context: alert urgencies and fields today; alerts and sources arrive next. */
@Module({
  controllers: ALERTING_RESOURCES.map((definition) => resourceController(definition)),
})
export class AlertingModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  async onModuleInit(): Promise<void> {
    for (const definition of ALERTING_RESOURCES) await this.projections.register(new ResourceListProjection(definition));
  }
}
