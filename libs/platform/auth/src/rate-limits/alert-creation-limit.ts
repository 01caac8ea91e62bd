import type { FactoryProvider } from '@nestjs/common';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { RateLimiter, RateLimitExceededError, type RateLimitDecision } from './rate-limiter';

/** Spec, Limits: "Alert creation: 50 per minute, per API key or alert source". */
export const ALERT_CREATION_LIMIT_PER_MINUTE = 50;

/**
 * Who an alert is counted against: the alert source when it arrives on that source's own
 * endpoint, otherwise the API key that posted it. Sources are keyed with their organization
 * so equal ids in two organizations never share a budget.
 */
export type AlertCreationSubject = { apiKeyId: string } | { organizationId: string; alertSourceId: string };

/**
 * The alert-creation limit, on top of the general write limit, on the same shared sliding
 * window store. The alerting context calls `consume` before it creates an alert.
 */
export class AlertCreationLimit {
  constructor(
    private readonly limiter: RateLimiter,
    private readonly perMinute = ALERT_CREATION_LIMIT_PER_MINUTE,
  ) {}

  /** Counts one alert; throws RateLimitExceededError (429, Retry-After) past the limit. */
  async consume(subject: AlertCreationSubject): Promise<RateLimitDecision> {
    const bucket = 'apiKeyId' in subject ? `alerts:key:${subject.apiKeyId}` : `alerts:source:${subject.organizationId}:${subject.alertSourceId}`;
    // A lease (RateLimiter.take): exact at the spec's 50 a minute (leases of one), one count per lease when a deployment raises it.
    const decision = await this.limiter.take(bucket, this.perMinute);
    if (!decision.allowed) throw new RateLimitExceededError(decision);
    return decision;
  }
}

/**
 * IdentityModule's provider: the deployment's limit (`ALERT_CREATION_LIMIT_PER_MINUTE`, default
 * the spec's 50), so an operator (or the bench) can raise it without touching the code.
 */
export const alertCreationLimitProvider = {
  provide: AlertCreationLimit,
  useFactory: (limiter: RateLimiter, config: TaprootConfig) => new AlertCreationLimit(limiter, config.alertCreationLimitPerMinute),
  inject: [RateLimiter, TAPROOT_CONFIG],
} satisfies FactoryProvider<AlertCreationLimit>;
