import type { RateLimitDecision, RateLimiter } from './rate-limiter';

/** How long a failed password attempt counts (the auth app's sign-in, private status pages' passwords). */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;

/** Budgets of failures: a bucket of the shared rate-limit store and how many failures it allows. */
export type FailureBudgets = [bucket: string, limit: number][];

/**
 * Failed password attempts, limited per bucket over the limiter's sliding window on the shared
 * rate-limit store (a RateLimiter of SIGN_IN_WINDOW_SECONDS). Only failures count, so a person
 * who signs in often is never locked out by their own success.
 */
export class FailureThrottle {
  constructor(private readonly limiter: RateLimiter) {}

  /** The refusal when any budget is spent (checked before the password is), else null. */
  async blocked(budgets: FailureBudgets): Promise<RateLimitDecision | null> {
    for (const [bucket, limit] of budgets) {
      const decision = await this.limiter.peek(bucket, limit);
      if (!decision.allowed) return decision;
    }
    return null;
  }

  async failed(budgets: FailureBudgets): Promise<void> {
    for (const [bucket, limit] of budgets) await this.limiter.hit(bucket, limit);
  }
}
