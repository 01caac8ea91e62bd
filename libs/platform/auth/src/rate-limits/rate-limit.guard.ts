import { Inject, Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { principalSubject, type Principal } from '../principal/principal';
import { addressLimit, RateLimiter, RateLimitExceededError, requestKind, setRateLimitHeaders, type RateLimitDecision } from './rate-limiter';

interface LimitedRequest {
  method: string;
  ip?: string;
  principal?: Principal;
}
interface HeaderReply {
  header(name: string, value: string): unknown;
}

const OWN_LIMIT = 'taproot:own-rate-limit';
/**
 * A public route limited by a rule of its own (inbound alerts: per alert source), not by the
 * client's address: a relay sending for many sources from one address is not throttled as one.
 */
export const OwnRateLimit = () => SetMetadata(OWN_LIMIT, true);

/**
 * Reads and writes are limited separately per API key (spec, Limits), after authentication
 * so the key is known. Every limited response carries the X-RateLimit-* headers.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: RateLimiter,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<LimitedRequest>();
    const principal = request.principal;
    const reply = http.getResponse<HeaderReply>();
    // A public route (the OpenAPI document) has no caller: it counts per client address, with
    // refused tokens, so its responses carry the headers too (spec: every response).
    if (!principal) {
      if (this.reflector.getAllAndOverride<boolean>(OWN_LIMIT, [context.getHandler(), context.getClass()])) return true;
      const { bucket, limit } = addressLimit(this.config, 'anonymous', request);
      return this.allow(reply, await this.limiter.take(bucket, limit));
    }
    const kind = requestKind(request.method);
    // The organization's own setting wins over the deployment default.
    const limit =
      kind === 'read'
        ? (principal.rateLimits?.readsPerMinute ?? this.config.rateLimitReadsPerMinute)
        : (principal.rateLimits?.writesPerMinute ?? this.config.rateLimitWritesPerMinute);
    // Per API key; an OAuth token counts against its client and user together.
    return this.allow(reply, await this.limiter.take(`${principalSubject(principal)}:${kind}`, limit));
  }

  private allow(reply: HeaderReply, decision: RateLimitDecision): true {
    if (!decision.allowed) throw new RateLimitExceededError(decision);
    setRateLimitHeaders(reply, decision);
    return true;
  }
}
