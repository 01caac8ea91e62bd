import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { RedeliverWebhookDeliveryHandler } from './deliveries/redeliver-webhook-delivery/redeliver-webhook-delivery.handler';
import { WebhooksDeliveriesController } from './deliveries/webhooks-deliveries.controller';
import { webhooksDeliveryDefinition } from './deliveries/webhooks-delivery.schema';
import { edgeConnectorActionDefinition } from './edge-connectors/edge-connector-action.schema';
import { edgeConnectorDefinition } from './edge-connectors/edge-connector.schema';
import { webhooksEndpointDefinition } from './endpoints/webhooks-endpoint.schema';
import { IpRangesController } from './ip-ranges/ip-ranges.controller';
import { secretDefinition } from './secrets/secret.schema';

/** The resources on the generic path, each with its read model. */
const CRUD_RESOURCES = [webhooksEndpointDefinition, secretDefinition, edgeConnectorDefinition, edgeConnectorActionDefinition];
/** Every declared resource; deliveries are read from the dispatcher's table by their own controller. */
export const WEBHOOKS_RESOURCES = [...CRUD_RESOURCES, webhooksDeliveryDefinition];

/** The webhooks bounded context's API: endpoints, secrets and deliveries (docs/webhooks.md), edge connectors (docs/edge-connectors.md), and the install's egress ranges (docs/ip-ranges.md). */
@Module({
  controllers: [...CRUD_RESOURCES.map((definition) => resourceController(definition)), WebhooksDeliveriesController, IpRangesController],
  providers: [RedeliverWebhookDeliveryHandler],
})
export class WebhooksModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    for (const definition of CRUD_RESOURCES) this.projections.inline(new ResourceListProjection(definition));
  }
}
