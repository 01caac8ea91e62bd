import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { EVENT_BUS, EVENT_TOPICS, type ConsumerContract, type DomainEvent, type EventBus } from '@taproot/messaging';
import { DELIVERABLE_DOMAIN_EVENTS, WebhookDeliveryEngine } from '@taproot/webhooks';

export const DISPATCHER_CONSUMER = 'webhook-dispatcher';

/**
 * What the dispatcher reads of the events it takes (its consumer contract): of every event, what
 * decides whether it is delivered; of those that may be, what the webhook body is made of.
 */
export const DISPATCHER_CONTRACT: ConsumerContract = {
  consumer: 'the webhook dispatcher',
  rules: [
    { types: /./, fields: ['id:string', 'type:string'] },
    { types: DELIVERABLE_DOMAIN_EVENTS, fields: ['organization_id:string', 'occurred_at:string', 'aggregate_type:string', 'aggregate_id:string', 'actor.kind:string', 'payload:object'] },
  ],
};

/**
 * Turns every context's events into webhook deliveries (docs/webhook-delivery.md): the events
 * that are delivered at all become one delivery per subscribed endpoint, leased to this process,
 * in one statement, and are handed to the engine at once. No inbox: the deliveries' key
 * (endpoint, event) is the record of what was consumed, so an event consumed again (a
 * redelivery) makes no second delivery, and the dispatcher writes one row per delivery, not two.
 */
@Injectable()
export class WebhookFanOutConsumer implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    /** Every context's topic. */
    @Inject(EVENT_TOPICS) private readonly topics: readonly string[],
    private readonly engine: WebhookDeliveryEngine,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribe({
      groupId: DISPATCHER_CONSUMER,
      topics: [...this.topics],
      handler: (events) => this.handle(events),
    });
  }

  async handle(events: DomainEvent[]): Promise<void> {
    this.engine.send(await this.engine.fanOut(events));
  }
}
