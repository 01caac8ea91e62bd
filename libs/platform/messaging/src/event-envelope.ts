import type { RequestMetadata } from './request-context';

/**
 * The public contract of a domain event (architecture rule 4). Never change a published
 * event's meaning: add a version instead.
 */
export interface EventActor {
  kind: 'api_key' | 'user' | 'system';
  id: string | null;
}

export interface DomainEvent<P = Record<string, unknown>> {
  id: string;
  /** Wire name in the past tense, e.g. `service.created`. */
  type: string;
  version: number;
  occurred_at: string;
  organization_id: string;
  aggregate_type: string;
  aggregate_id: string;
  actor: EventActor;
  payload: P;
  /** The request that caused the change, when there was one (version 1 addition, optional). */
  metadata?: RequestMetadata;
}
