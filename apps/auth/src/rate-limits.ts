import { addressLimit, rateLimitHeaders, RateLimitExceededError, type RateLimiter } from '@taproot/auth';
import type { TaprootConfig } from '@taproot/config';
import { isProbe } from '@taproot/runtime';
import type { FastifyInstance } from 'fastify';

/**
 * Every response of the auth app carries the X-RateLimit-* headers (spec, Limits). No API key
 * vouches for its callers, so requests count per client address against the deployment's read
 * and write limits, as the api counts refused tokens (docs/decisions/0001), in buckets of their
 * own. Leased (`take`) like the api's per-key limits: most requests cost no query. The probes stay
 * outside, as at the api, so that liveness does not depend on the database.
 */
export function limitRequests(fastify: FastifyInstance, limiter: RateLimiter, config: Pick<TaprootConfig, 'rateLimitReadsPerMinute' | 'rateLimitWritesPerMinute'>): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (isProbe(request)) return;
    const { bucket, limit } = addressLimit(config, 'auth', request);
    const decision = await limiter.take(bucket, limit);
    if (!decision.allowed) {
      const error = new RateLimitExceededError(decision);
      return reply.code(429).headers(error.headers).send(RateLimitExceededError.BODY);
    }
    void reply.headers(rateLimitHeaders(decision));
  });
}
