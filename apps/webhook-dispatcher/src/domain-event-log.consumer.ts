import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { applyBatchOnce, EVENT_BUS, EVENT_TOPICS, type ConsumerContract, type DomainEvent, type EventBus } from '@taproot/messaging';
import { LOGGER } from '@taproot/runtime';
import type { Logger } from '@taproot/config';
import { DataSource } from 'typeorm';

export const DISPATCHER_CONSUMER = 'webhook-dispatcher';

/** What the dispatcher reads of every event (its consumer contract): the inbox key and what it logs. */
export const DISPATCHER_CONTRACT: ConsumerContract = {
  consumer: 'the webhook dispatcher',
  rules: [{ types: /./, fields: ['id:string', 'type:string', 'organization_id:string', 'aggregate_id:string'] }],
};

/**
 * Consumes every context's domain events, once each (inbox), and logs them. Signing and
 * delivering webhooks is a later issue; this is the consumer those deliveries will hang on.
 */
@Injectable()
export class DomainEventLogConsumer implements OnApplicationBootstrap {
  constructor(
    @Inject(EVENT_BUS) private readonly bus: EventBus,
    /** Every context's topic: the events the dispatcher will turn into webhook deliveries. */
    @Inject(EVENT_TOPICS) private readonly topics: readonly string[],
    private readonly dataSource: DataSource,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribe({
      groupId: DISPATCHER_CONSUMER,
      topics: [...this.topics],
      handler: (events) => this.handle(events),
    });
  }

  async handle(events: DomainEvent[]): Promise<void> {
    const fresh = await applyBatchOnce(this.dataSource, DISPATCHER_CONSUMER, events, async () => undefined);
    for (const event of fresh) {
      this.logger.info(
        { event_id: event.id, type: event.type, organization_id: event.organization_id, aggregate_id: event.aggregate_id },
        'domain event received',
      );
    }
  }
}
