import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, type Logger } from '@taproot/config';
import { domainEvent, UnitOfWork, type EventActor } from '@taproot/messaging';
import { ResourceWriteHandler } from '@taproot/resources';
import { LOGGER } from '@taproot/runtime';
import { webhooksEndpointDefinition } from '../endpoints/webhooks-endpoint.schema';

/** The dispatcher acting on its own. */
const DISPATCHER_ACTOR: EventActor = { kind: 'system', id: null };

/** Announced when the dispatcher disables an endpoint (docs/events.md, "Outgoing webhooks"). */
export const WEBHOOKS_ENDPOINT_DISABLED = 'webhooks_endpoint.disabled';

export interface EndpointToDisable {
  organizationId: string;
  endpointId: string;
  /** `gone`: it answered 410 Gone; `failing`: every attempt failed for WEBHOOK_DISABLE_AFTER_HOURS. */
  reason: 'gone' | 'failing';
  /** In words, for the event. */
  detail: string;
}

/**
 * Disables endpoints the way a client's update would (the resource's writer: the write table, its
 * read model and `webhooks_endpoint.updated`), and announces why with `webhooks_endpoint.disabled`
 * (the snapshot plus `disabled_reason` and `disabled_detail`). Each endpoint under its own
 * savepoint: one that fails is logged and disabled at its next failure. One already disabled (or
 * deleted) is left alone.
 */
@Injectable()
export class WebhookEndpointDisabler extends ResourceWriteHandler {
  constructor(
    unitOfWork: UnitOfWork,
    @Inject(CLOCK) clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super(unitOfWork, clock);
  }

  async disable(endpoints: readonly EndpointToDisable[]): Promise<void> {
    await this.commitIsolated(async (scope) => {
      for (const endpoint of endpoints) {
        const command = { definition: webhooksEndpointDefinition, organizationId: endpoint.organizationId, actor: DISPATCHER_ACTOR, userId: null };
        const done = await scope.attempt(command, async (writer, ctx, keep) => {
          const [current] = (await ctx.manager.query('SELECT enabled FROM webhooks_endpoints WHERE id = $1 AND organization_id = $2 FOR UPDATE', [endpoint.endpointId, endpoint.organizationId])) as { enabled: boolean }[];
          if (!current?.enabled) return false;
          const result = await writer.update(ctx, endpoint.endpointId, { enabled: false });
          const disabled = domainEvent({
            type: WEBHOOKS_ENDPOINT_DISABLED,
            organizationId: ctx.organizationId,
            aggregateType: writer.schema.type,
            aggregateId: endpoint.endpointId,
            actor: ctx.actor,
            payload: { ...result.events[0].payload, disabled_reason: endpoint.reason, disabled_detail: endpoint.detail },
            occurredAt: ctx.now,
          });
          keep({ ...result, events: [...result.events, disabled] });
          return true;
        });
        if (!done.ok) this.logger.error({ err: done.error, endpoint_id: endpoint.endpointId, organization_id: endpoint.organizationId }, 'disabling a webhook endpoint failed');
        else if (done.value) this.logger.warn({ endpoint_id: endpoint.endpointId, organization_id: endpoint.organizationId, reason: endpoint.reason, detail: endpoint.detail }, 'webhook endpoint disabled');
      }
    });
  }
}
