/**
 * Failures that say "the database cannot be reached right now", not "this statement is wrong":
 * retrying the same work later succeeds. Consumers retry them without end (never dead-letter),
 * and the api answers them with 503 and `Retry-After` instead of a 500.
 */

/** Socket errors of a server that is down, restarting or unreachable. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs (and classes) of a server that is shutting down, starting, overloaded or that chose
 * this transaction as a victim: 08 connection exception, 53 insufficient resources, 57P01-57P03
 * (admin/crash shutdown, cannot connect now), 58 system error, 40001 serialization failure,
 * 40P01 deadlock, 57014 a statement timeout.
 */
const TRANSIENT_SQLSTATE = /^(08|53|58)|^(57P0[1-3]|40001|40P01|57014)$/;

/** What node-postgres says when the socket goes away under a client (no code attached). */
const PG_CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'terminating connection due to',
  'the database system is starting up',
  'the database system is shutting down',
  'the database system is in recovery mode',
];

/** The error and what it wraps: `cause`, TypeORM's `driverError`, an AggregateError's `errors`. */
export function* errorChain(error: unknown, depth = 0): Generator<Record<string, unknown>> {
  if (depth > 8 || error === null || typeof error !== 'object') return;
  const e = error as Record<string, unknown>;
  yield e;
  yield* errorChain(e.cause, depth + 1);
  yield* errorChain(e.driverError, depth + 1);
  if (Array.isArray(e.errors)) for (const inner of e.errors) yield* errorChain(inner, depth + 1);
}

/** True when `error` (or what it wraps) is a database or network failure that a later retry outlives. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const e of errorChain(error)) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (NETWORK_CODES.has(code)) return true;
    // A SQLSTATE is five characters; Node's own codes (ERR_..., E...) are not.
    if (/^[0-9A-Z]{5}$/.test(code) && TRANSIENT_SQLSTATE.test(code)) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    if (PG_CONNECTION_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}
