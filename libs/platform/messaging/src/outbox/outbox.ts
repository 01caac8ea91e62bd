import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { DomainEvent, EventActor } from '../event-envelope';
import { currentRequestMetadata } from '../request-context';

/** Kafka topic of a context's events: one topic per bounded context. */
export function topicOf(context: string): string {
  return `taproot.${context}`;
}

export interface NewEvent<P> {
  type: string;
  version?: number;
  organizationId: string;
  aggregateType: string;
  aggregateId: string;
  actor: EventActor;
  payload: P;
  occurredAt?: Date;
}

export function domainEvent<P extends Record<string, unknown>>(e: NewEvent<P>): DomainEvent<P> {
  const metadata = currentRequestMetadata();
  return {
    id: randomUUID(),
    type: e.type,
    version: e.version ?? 1,
    occurred_at: (e.occurredAt ?? new Date()).toISOString(),
    organization_id: e.organizationId,
    aggregate_type: e.aggregateType,
    aggregate_id: e.aggregateId,
    actor: e.actor,
    payload: e.payload,
    ...(metadata ? { metadata } : {}),
  };
}

/** Bounded statements: PostgreSQL takes at most 65,535 parameters (5 an event). */
const OUTBOX_ROWS_PER_INSERT = 1000;

/**
 * Appends events to the outbox inside the caller's transaction (architecture rule 3): the
 * state change and its events commit together or not at all. The relay publishes them later.
 */
export async function appendToOutbox(manager: EntityManager, topic: string, events: DomainEvent[]): Promise<void> {
  for (let start = 0; start < events.length; start += OUTBOX_ROWS_PER_INSERT) {
    const chunk = events.slice(start, start + OUTBOX_ROWS_PER_INSERT);
    const values: unknown[] = [];
    const rows = chunk.map((event, i) => {
      values.push(event.id, topic, event.aggregate_id, event.organization_id, JSON.stringify(event));
      const o = i * 5;
      return `($${o + 1}, $${o + 2}, $${o + 3}, $${o + 4}, $${o + 5}::json)`;
    });
    await manager.query(`INSERT INTO outbox (event_id, topic, aggregate_id, organization_id, event) VALUES ${rows.join(', ')}`, values);
  }
}

/** Injection token: the topics of every context of the process (consumers of "everything": audit log, dispatcher). */
export const EVENT_TOPICS = Symbol('EVENT_TOPICS');
