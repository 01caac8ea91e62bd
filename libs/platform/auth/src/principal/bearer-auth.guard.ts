import { Inject, Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { JsonApiError } from '@taproot/json-api';
import { recordRequestSession } from '@taproot/messaging';
import type { Caller } from '../caller/caller';
import { CallerResolver } from '../caller/caller-resolver';
import { addressLimit, rateLimitHeaders, RateLimiter, RateLimitExceededError } from '../rate-limits/rate-limiter';
import type { Principal } from './principal';

const PUBLIC_ROUTE = 'taproot:public';
/** Marks a route that needs no token (health probes, the OpenAPI document). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);

interface AuthenticatedRequest {
  method: string;
  ip?: string;
  headers: Record<string, string | string[] | undefined>;
  principal?: Principal;
  caller?: Caller;
}

/**
 * RFC 6750: a request without a token gets the bare challenge; a token that was presented and
 * refused gets `error="invalid_token"`, which tells an OAuth client to refresh (spec: "Clients
 * refresh an OAuth token on this status").
 */
function unauthorized(detail: string, headers: Record<string, string> = {}, tokenRefused = false): JsonApiError {
  return new JsonApiError(
    401,
    [{ title: 'Unauthorized', status: '401', code: 'UNAUTHORIZED', detail }],
    { 'WWW-Authenticate': `Bearer realm="taproot"${tokenRefused ? ', error="invalid_token"' : ''}`, ...headers },
  );
}

/**
 * Every /v1 request carries `Authorization: Bearer <token>` (spec, "Authentication"). The guard
 * resolves the request's Caller, principal and permissions, once (`CurrentCaller`).
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly callers: CallerResolver,
    private readonly limiter: RateLimiter,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
  ) {}

  /**
   * A refused token still counts, per client address, against the deployment's limits: every
   * response carries the rate-limit headers (spec, Limits), and guessing tokens is throttled.
   */
  private async refuse(request: AuthenticatedRequest, detail: string, tokenRefused = false): Promise<never> {
    const { bucket, limit } = addressLimit(this.config, 'anonymous', request);
    const decision = await this.limiter.hit(bucket, limit);
    if (!decision.allowed) throw new RateLimitExceededError(decision);
    throw unauthorized(detail, rateLimitHeaders(decision), tokenRefused);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    if (typeof header !== 'string' || header.trim() === '') return this.refuse(request, 'The Authorization header is missing');
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) return this.refuse(request, 'The Authorization header must be "Bearer <token>"');
    const caller = await this.callers.resolve(match[1]);
    if (!caller) return this.refuse(request, 'The token is unknown, revoked or expired', true);
    request.principal = request.caller = caller;
    recordRequestSession(caller.sessionId ?? null);
    return true;
  }
}
