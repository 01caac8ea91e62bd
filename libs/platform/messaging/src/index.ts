export * from './event-envelope';
export * from './request-context';
export * from './bus/event-bus.port';
export * from './bus/in-process.bus';
export * from './bus/kafka.bus';
export * from './bus/kafka-dead-letters';
export * from './outbox/outbox';
export * from './outbox/outbox-relay';
export * from './pass-loop';
export * from './inbox/projection';
export * from './unit-of-work';
export * from './commit-cache';
export * from './consumer-contract';
export * from './transient-failure';
import { CreateOutboxAndInbox1732300000000 } from './migrations/1732300000000-create-outbox-and-inbox';
import { OutboxEventJson1732300009500 } from './migrations/1732300009500-outbox-event-json';

export const MESSAGING_MIGRATIONS = [CreateOutboxAndInbox1732300000000, OutboxEventJson1732300009500];
