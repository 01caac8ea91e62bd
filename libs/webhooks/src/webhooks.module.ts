import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { RedeliverWebhookDeliveryHandler } from './deliveries/redeliver-webhook-delivery/redeliver-webhook-delivery.handler';
import { WebhooksDeliveriesController } from './deliveries/webhooks-deliveries.controller';
import { webhooksDeliveryDefinition } from './deliveries/webhooks-delivery.schema';
import { webhooksEndpointDefinition } from './endpoints/webhooks-endpoint.schema';
import { secretDefinition } from './secrets/secret.schema';

/** The resources with a read model of their own; deliveries are read from the dispatcher's table. */
const WEBHOOKS_READ_MODELS = [webhooksEndpointDefinition, secretDefinition];
export const WEBHOOKS_RESOURCES = [...WEBHOOKS_READ_MODELS, webhooksDeliveryDefinition];

/** The webhooks bounded context's API: endpoints, secrets and deliveries (docs/webhooks.md). */
@Module({
  // The redeliver route first: `/v1/webhooks/deliveries/{id}/deliver` is its own.
  controllers: [WebhooksDeliveriesController, ...WEBHOOKS_RESOURCES.map((definition) => resourceController(definition))],
  providers: [RedeliverWebhookDeliveryHandler],
})
export class WebhooksModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    for (const definition of WEBHOOKS_READ_MODELS) this.projections.inline(new ResourceListProjection(definition));
  }
}
