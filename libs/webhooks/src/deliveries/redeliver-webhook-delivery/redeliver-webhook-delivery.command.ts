import type { EventActor } from '@taproot/messaging';
import type { ResourceWriteCommand } from '@taproot/resources';
import { webhooksDeliveryDefinition } from '../webhooks-delivery.schema';

/**
 * `POST /v1/webhooks/deliveries/{id}/deliver` (reference `deliverWebhooksDelivery`): a delivery is
 * put back in line, due now; the dispatcher sends it again with the same body and webhook-id.
 */
export class RedeliverWebhookDeliveryCommand implements ResourceWriteCommand {
  readonly definition = webhooksDeliveryDefinition;

  constructor(
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly id: string,
  ) {}
}
