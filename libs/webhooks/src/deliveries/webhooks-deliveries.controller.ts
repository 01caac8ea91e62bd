import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { actorOf, CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import type { CollectionDocument, SingleDocument } from '@taproot/json-api';
import { GetResourceQuery, ListResourcesQuery, snapshotObject, type FlatQuery, type Snapshot } from '@taproot/resources';
import { RedeliverWebhookDeliveryCommand } from './redeliver-webhook-delivery/redeliver-webhook-delivery.command';
import { webhooksDeliveryDefinition as definition, webhooksDeliverySchema as schema } from './webhooks-delivery.schema';

const RECORDS = 'v1/webhooks/deliveries';

/**
 * Webhook deliveries (docs/webhooks.md, "Deliveries"): read through the resource framework's read
 * path (under an endpoint, another organization's endpoint a 404; across endpoints; one by id) with
 * webhooks read, and put back in line with webhooks update. Nothing else: the dispatcher writes them.
 */
@Controller()
export class WebhooksDeliveriesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('v1/webhooks/endpoints/:endpoint_id/deliveries')
  @RequirePermission('webhooks', 'read')
  listOfEndpoint(@CurrentCaller() caller: Caller, @Param('endpoint_id') endpointId: string, @Query() query: FlatQuery): Promise<CollectionDocument> {
    return this.queries.execute(new ListResourcesQuery(definition, caller.organizationId, query, endpointId));
  }

  @Get(RECORDS)
  @RequirePermission('webhooks', 'read')
  list(@CurrentCaller() caller: Caller, @Query() query: FlatQuery): Promise<CollectionDocument> {
    return this.queries.execute(new ListResourcesQuery(definition, caller.organizationId, query));
  }

  @Get(`${RECORDS}/:id`)
  @RequirePermission('webhooks', 'read')
  get(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: FlatQuery): Promise<SingleDocument> {
    return this.queries.execute(new GetResourceQuery(definition, caller.organizationId, id, query));
  }

  @Post(`${RECORDS}/:id/deliver`)
  @HttpCode(200)
  @RequirePermission('webhooks', 'update')
  async deliver(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<SingleDocument> {
    const snapshot: Snapshot = await this.commands.execute(new RedeliverWebhookDeliveryCommand(caller.organizationId, actorOf(caller), id));
    return { data: snapshotObject(schema, snapshot) };
  }
}
