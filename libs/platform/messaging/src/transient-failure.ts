import { errorChain, isDatabaseUnavailable } from '@taproot/persistence';

/**
 * A failure a later retry outlives: the database or the broker unreachable, a timeout, a
 * transaction chosen as a victim. A consumer retries these until the dependency returns (they
 * never dead-letter); only a failure that would repeat on the same input (a malformed payload, a
 * bug) is parked in the dead-letter topic.
 */
export function isTransientFailure(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  for (const e of errorChain(error)) {
    // kafkajs marks what it would retry itself; its retry wrapper keeps the cause in `originalError`.
    if (e.retriable === true) return true;
    if (typeof e.name === 'string' && /^KafkaJS(Connection|RequestTimeout|NumberOfRetriesExceeded)Error$/.test(e.name)) return true;
    if (e.originalError && isTransientFailure(e.originalError)) return true;
  }
  return false;
}
