import { AsyncLocalStorage } from 'node:async_hooks';

/** Where a change came from: carried into every event it causes (for the audit log). */
export interface RequestMetadata {
  request_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  /** SHA-256 fingerprint of a browser session; null for API calls with a bearer token. */
  session_id: string | null;
}

const storage = new AsyncLocalStorage<RequestMetadata>();

/** Runs `fn` with the request's metadata available to every event created inside it. */
export function runWithRequestMetadata<T>(metadata: RequestMetadata, fn: () => T): T {
  return storage.run(metadata, fn);
}

export function currentRequestMetadata(): RequestMetadata | undefined {
  return storage.getStore();
}
