import { RateLimiter, type RateLimitDecision } from '@taproot/auth';

/**
 * Failed sign-ins are limited per e-mail address (guessing one person's password) and per client
 * IP (trying many addresses), over a sliding 15 minutes on the shared rate-limit store. Only
 * failures count, so a person who signs in often is never locked out by their own success.
 */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const SIGN_IN_FAILURES_PER_EMAIL = 5;
export const SIGN_IN_FAILURES_PER_IP = 20;

export class SignInThrottle {
  constructor(private readonly limiter: RateLimiter) {}

  private buckets(email: string, ip: string): [string, number][] {
    return [
      [`signin:email:${email.trim().toLowerCase()}`, SIGN_IN_FAILURES_PER_EMAIL],
      [`signin:ip:${ip}`, SIGN_IN_FAILURES_PER_IP],
    ];
  }

  /** The refusal when either budget is spent (checked before the password is), else null. */
  async blocked(email: string, ip: string): Promise<RateLimitDecision | null> {
    for (const [bucket, limit] of this.buckets(email, ip)) {
      const decision = await this.limiter.peek(bucket, limit);
      if (!decision.allowed) return decision;
    }
    return null;
  }

  async failed(email: string, ip: string): Promise<void> {
    for (const [bucket, limit] of this.buckets(email, ip)) await this.limiter.hit(bucket, limit);
  }
}
