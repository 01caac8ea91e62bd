import { FailureThrottle, type FailureBudgets, type RateLimitDecision, type RateLimiter } from '@taproot/auth';

export { SIGN_IN_WINDOW_SECONDS } from '@taproot/auth';

/**
 * Failed sign-ins are limited per e-mail address (guessing one person's password) and per client
 * IP (trying many addresses), over a sliding 15 minutes on the shared rate-limit store. Only
 * failures count (FailureThrottle).
 */
export const SIGN_IN_FAILURES_PER_EMAIL = 5;
export const SIGN_IN_FAILURES_PER_IP = 20;

export class SignInThrottle {
  private readonly failures: FailureThrottle;

  constructor(limiter: RateLimiter) {
    this.failures = new FailureThrottle(limiter);
  }

  private budgets(email: string, ip: string): FailureBudgets {
    return [
      [`signin:email:${email.trim().toLowerCase()}`, SIGN_IN_FAILURES_PER_EMAIL],
      [`signin:ip:${ip}`, SIGN_IN_FAILURES_PER_IP],
    ];
  }

  /** The refusal when either budget is spent (checked before the password is), else null. */
  blocked(email: string, ip: string): Promise<RateLimitDecision | null> {
    return this.failures.blocked(this.budgets(email, ip));
  }

  failed(email: string, ip: string): Promise<void> {
    return this.failures.failed(this.budgets(email, ip));
  }
}
