import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { actorOf, CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import type { SingleDocument } from '@taproot/json-api';
import { snapshotObject, type Snapshot } from '@taproot/resources';
import { RedeliverWebhookDeliveryCommand } from './redeliver-webhook-delivery/redeliver-webhook-delivery.command';
import { webhooksDeliverySchema } from './webhooks-delivery.schema';

/** `POST /v1/webhooks/deliveries/{id}/deliver`: 200 with the delivery put back in line; another organization's is a 404. */
@Controller('v1/webhooks/deliveries')
export class WebhooksDeliveriesController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/deliver')
  @HttpCode(200)
  @RequirePermission('webhooks', 'update')
  async deliver(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<SingleDocument> {
    const snapshot: Snapshot = await this.commands.execute(new RedeliverWebhookDeliveryCommand(caller.organizationId, actorOf(caller), id));
    return { data: snapshotObject(webhooksDeliverySchema, snapshot) };
  }
}
