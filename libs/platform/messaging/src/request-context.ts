import { AsyncLocalStorage } from 'node:async_hooks';
import type { EntityManager } from 'typeorm';
import type { DomainEvent } from './event-envelope';

/** Where a change came from: carried into every event it causes (for the audit log). */
export interface RequestMetadata {
  request_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  /** SHA-256 fingerprint of the login session an OAuth token belongs to; null for API keys. */
  session_id: string | null;
  /**
   * The bulk import that caused the change (`POST /v1/incidents/import`): outgoing webhooks
   * announce the import once instead of each of its events (docs/events.md).
   */
  import_id?: string;
}

const storage = new AsyncLocalStorage<RequestMetadata>();

/** Runs `fn` with the request's metadata available to every event created inside it. */
export function runWithRequestMetadata<T>(metadata: RequestMetadata, fn: () => T): T {
  return storage.run(metadata, fn);
}

export function currentRequestMetadata(): RequestMetadata | undefined {
  return storage.getStore();
}

/** The session is known only once the bearer token is verified, after the metadata was taken. */
export function recordRequestSession(sessionId: string | null): void {
  const metadata = storage.getStore();
  if (metadata) metadata.session_id = sessionId;
}

/**
 * Something a request writes in the transaction of its command, so that it commits with the
 * command's rows or not at all (an idempotency key's record: docs/decisions/0005).
 */
export interface RequestTransactionParticipant {
  /** Runs in each transaction of the request, after its writes, with the events it emitted. */
  write(manager: EntityManager, events: readonly DomainEvent[]): Promise<void>;
  /** Told after that transaction committed. */
  committed(): void;
}

// A symbol key: spread copies keep it (a nested request context), event metadata serialized to JSON does not.
const PARTICIPANT = Symbol('request transaction participant');
type RequestStore = RequestMetadata & { [PARTICIPANT]?: RequestTransactionParticipant };

/** Enlists `participant` in the transactions of the current request; false outside one. */
export function joinRequestTransactions(participant: RequestTransactionParticipant): boolean {
  const store: RequestStore | undefined = storage.getStore();
  if (!store) return false;
  store[PARTICIPANT] = participant;
  return true;
}

export function requestTransactionParticipant(): RequestTransactionParticipant | undefined {
  return (storage.getStore() as RequestStore | undefined)?.[PARTICIPANT];
}
