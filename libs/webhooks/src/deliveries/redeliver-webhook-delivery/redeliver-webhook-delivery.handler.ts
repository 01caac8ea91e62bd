import { CommandHandler } from '@nestjs/cqrs';
import { domainEvent } from '@taproot/messaging';
import { ResourceWriteHandler, type Snapshot } from '@taproot/resources';
import { WebhooksError, WebhooksErrorCode } from '../../errors';
import { WEBHOOKS_DELIVERY_REDELIVERED } from '../webhooks-delivery.schema';
import { RedeliverWebhookDeliveryCommand } from './redeliver-webhook-delivery.command';

/**
 * Puts a delivery of the organization back in line: `pending`, due now, its lease (an attempt in
 * flight) dropped; attempts and the last error stay until the next attempt. A delivery of a
 * disabled endpoint is refused (422): the dispatcher would not send it. Announced as
 * `webhooks_delivery.redelivered`.
 */
@CommandHandler(RedeliverWebhookDeliveryCommand)
export class RedeliverWebhookDeliveryHandler extends ResourceWriteHandler {
  execute(c: RedeliverWebhookDeliveryCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => {
      const current = await writer.load(ctx.manager, ctx.organizationId, c.id, true);
      const [endpoint] = (await ctx.manager.query('SELECT name, enabled FROM webhooks_endpoints WHERE id = $1 AND organization_id = $2', [current.endpoint_id, ctx.organizationId])) as {
        name: string;
        enabled: boolean;
      }[];
      if (!endpoint.enabled) throw new WebhooksError(WebhooksErrorCode.EndpointDisabled, `endpoint is disabled: enable webhook endpoint '${endpoint.name}' (${String(current.endpoint_id)}) before redelivering its deliveries`);
      await ctx.manager.query("UPDATE webhooks_deliveries SET status = 'pending', next_attempt_at = $3, leased_until = NULL, updated_at = $3 WHERE id = $1 AND organization_id = $2", [
        current.id,
        ctx.organizationId,
        ctx.now,
      ]);
      // As the API serves it (the read view's status).
      const [served] = (await ctx.manager.query('SELECT * FROM webhooks_deliveries_read WHERE id = $1', [current.id])) as Record<string, unknown>[];
      const snapshot = writer.snapshot(served);
      const event = domainEvent({ type: WEBHOOKS_DELIVERY_REDELIVERED, organizationId: ctx.organizationId, aggregateType: c.definition.schema.type, aggregateId: snapshot.id, actor: ctx.actor, payload: snapshot, occurredAt: ctx.now });
      return keep({ snapshot, events: [event] });
    });
  }
}
