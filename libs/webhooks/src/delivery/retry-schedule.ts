import type { WebhookAttemptOutcome } from './webhook-sender';

/** A delivery is retried until an attempt fails this long after its first attempt. */
export const RETRY_WINDOW_MS = 24 * 3_600_000;
/** The ceiling of the wait after the first failed attempt; it doubles with each failure. */
const FIRST_CEILING_MS = 30_000;
const MAX_CEILING_MS = 3_600_000;

/**
 * The wait before the next attempt after `attempts` failed ones: exponential backoff with full
 * jitter (uniform in [0, ceiling), the ceiling 30 s doubling up to 1 h), so the retries of many
 * deliveries that failed together spread out instead of arriving together again.
 */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_CEILING_MS, FIRST_CEILING_MS * 2 ** Math.max(0, attempts - 1));
  return Math.floor(random() * ceiling);
}

/** What an attempt makes of its delivery. */
export type AttemptVerdict =
  | { status: 'delivered' }
  /** `gone`: the receiver answered 410 Gone, which disables the endpoint. */
  | { status: 'failed'; gone: boolean }
  | { status: 'retrying'; nextAttemptAt: Date };

/**
 * The verdict of the `attempts`-th attempt (this one counted), made at `attemptedAt` of a
 * delivery first attempted at `firstAttemptAt`: a 2xx delivers; 410 Gone fails it for good; any
 * other answer, or none, is retried after `retryDelayMs` until an attempt fails 24 h or more
 * after the first (so retries last at least 24 h), which fails it.
 */
export function verdictOf(outcome: WebhookAttemptOutcome, attempts: number, firstAttemptAt: Date, attemptedAt: Date, random?: () => number): AttemptVerdict {
  if (outcome.status !== null && outcome.status >= 200 && outcome.status < 300) return { status: 'delivered' };
  if (outcome.status === 410) return { status: 'failed', gone: true };
  if (attemptedAt.getTime() - firstAttemptAt.getTime() >= RETRY_WINDOW_MS) return { status: 'failed', gone: false };
  return { status: 'retrying', nextAttemptAt: new Date(attemptedAt.getTime() + retryDelayMs(attempts, random)) };
}
