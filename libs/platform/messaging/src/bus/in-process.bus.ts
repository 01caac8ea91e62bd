import type { DomainEvent } from '../event-envelope';
import type { BusMessage, BusSubscription, EventBus } from './event-bus.port';

/** The messages' events per topic, in publish order (order per key is order per topic). */
function byTopic(messages: BusMessage[]): Map<string, DomainEvent[]> {
  const topics = new Map<string, DomainEvent[]>();
  for (const { topic, event } of messages) {
    let events = topics.get(topic);
    if (!events) topics.set(topic, (events = []));
    events.push(event);
  }
  return topics;
}

/**
 * The embedded bus: delivers each published message to every consumer group subscribed to its
 * topic before `publish` resolves. The outbox row is marked published only after that, so a
 * crash mid-delivery redelivers from the outbox (consumers de-duplicate through the inbox).
 * Consumer groups are independent, as on Kafka: each gets the published messages of a topic as
 * one batch in order, and the groups run side by side (one group's slow projection does not hold
 * the others back).
 */
export class InProcessEventBus implements EventBus {
  readonly kind = 'in-process' as const;
  private readonly subscriptions: BusSubscription[] = [];
  private closed = false;

  constructor(private readonly opts: { retries?: number; retryDelayMs?: number } = {}) {}

  async publish(messages: BusMessage[]): Promise<void> {
    if (this.closed) throw new Error('event bus is closed');
    await Promise.all(
      this.subscriptions.map(async (sub) => {
        for (const [topic, events] of byTopic(messages)) if (sub.topics.includes(topic)) await this.deliver(sub, topic, events);
      }),
    );
  }

  async subscribe(subscription: BusSubscription): Promise<void> {
    if (this.subscriptions.some((s) => s.groupId === subscription.groupId)) {
      throw new Error(`consumer group ${subscription.groupId} is already subscribed`);
    }
    this.subscriptions.push(subscription);
  }

  async ping(): Promise<boolean> {
    return !this.closed;
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private async deliver(sub: BusSubscription, topic: string, events: DomainEvent[]): Promise<void> {
    const retries = this.opts.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      try {
        return await sub.handler(events, topic);
      } catch (error) {
        if (attempt >= retries) throw error;
        await new Promise((r) => setTimeout(r, (this.opts.retryDelayMs ?? 50) * 2 ** attempt));
      }
    }
  }
}
