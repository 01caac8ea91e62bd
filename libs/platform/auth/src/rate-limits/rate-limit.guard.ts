import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import type { Principal } from '../principal/principal';
import { rateLimitHeaders, RateLimiter, RateLimitExceededError, requestKind } from './rate-limiter';

interface LimitedRequest {
  method: string;
  principal?: Principal;
}
interface HeaderReply {
  header(name: string, value: string): unknown;
}

/**
 * Reads and writes are limited separately per API key (spec, Limits), after authentication
 * so the key is known. Every limited response carries the X-RateLimit-* headers.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly limiter: RateLimiter,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<LimitedRequest>();
    const principal = request.principal;
    if (!principal) return true;
    const kind = requestKind(request.method);
    // The organization's own setting wins over the deployment default.
    const limit =
      kind === 'read'
        ? (principal.rateLimits?.readsPerMinute ?? this.config.rateLimitReadsPerMinute)
        : (principal.rateLimits?.writesPerMinute ?? this.config.rateLimitWritesPerMinute);
    // Per API key; an OAuth token counts against its client and user together.
    const clientId = (principal as { clientId?: string | null }).clientId ?? 'none';
    const subject = principal.apiKeyId ? `key:${principal.apiKeyId}` : `oauth:${clientId}:${principal.organizationId}:${principal.userId}`;
    const decision = await this.limiter.take(`${subject}:${kind}`, limit);
    if (!decision.allowed) throw new RateLimitExceededError(decision);
    const reply = http.getResponse<HeaderReply>();
    for (const [name, value] of Object.entries(rateLimitHeaders(decision))) reply.header(name, value);
    return true;
  }
}
