import type { DomainEvent } from '../event-envelope';

/** One message as it travels on the bus: the topic is per context, the key the aggregate id. */
export interface BusMessage {
  topic: string;
  key: string;
  event: DomainEvent;
}

/**
 * Receives a batch of one topic's events, in order per key. A consumer applies the batch in one
 * transaction where it can: one commit per batch instead of one per event.
 */
export type BusHandler = (events: DomainEvent[], topic: string) => Promise<void>;

export interface BusSubscription {
  /** Consumer group: each group receives every message once (Kafka semantics). */
  groupId: string;
  topics: string[];
  /**
   * A rejection means "not processed": the adapter redelivers the batch (Kafka: offsets not
   * committed; in-process: retried). Kafka narrows a batch that keeps failing down to the one
   * message that fails and parks that one in the dead-letter topic.
   */
  handler: BusHandler;
}

/**
 * The port every adapter implements: Kafka (kafkajs) in distributed mode, in-process when
 * embedded. The outbox relay is the only producer.
 */
export interface EventBus {
  readonly kind: 'kafka' | 'in-process';
  /** Resolves once every message is durably accepted (Kafka: acks=all). Order is kept per key. */
  publish(messages: BusMessage[]): Promise<void>;
  subscribe(subscription: BusSubscription): Promise<void>;
  /** True when the bus can accept messages now (readiness probe). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export const EVENT_BUS = Symbol('EVENT_BUS');
