import type { DomainEvent } from '../event-envelope';

/** One message as it travels on the bus: the topic is per context, the key the aggregate id. */
export interface BusMessage {
  topic: string;
  key: string;
  event: DomainEvent;
}

export type BusHandler = (event: DomainEvent, topic: string) => Promise<void>;

export interface BusSubscription {
  /** Consumer group: each group receives every message once (Kafka semantics). */
  groupId: string;
  topics: string[];
  /**
   * Called once per message, in order per key. A rejection means "not processed": the
   * adapter redelivers it (Kafka: offset not committed; in-process: retried).
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
