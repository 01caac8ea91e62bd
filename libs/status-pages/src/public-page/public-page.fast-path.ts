import { Inject, Injectable } from '@nestjs/common';
import { addressLimit, RateLimiter, setRateLimitHeaders, type RateLimitDecision } from '@taproot/auth';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import type { EarlyRequestHandler } from '@taproot/runtime';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { hostAddress, hostName, PublicPageCache, sendAnswer, slugAddress, type PageAnswer } from './public-page.cache';
import type { Format } from './public-page.controller';

/** The controller's routes (public-page.controller.ts), as Fastify names them: by slug or by Host. */
const ROUTES = new Map<string, { format: Format; bySlug: boolean }>([
  ['/status/:slug', { format: 'html', bySlug: true }],
  ['/status/:slug/index.json', { format: 'json', bySlug: true }],
  ['/status/:slug/feed.atom', { format: 'atom', bySlug: true }],
  ['/', { format: 'html', bySlug: false }],
  ['/index.json', { format: 'json', bySlug: false }],
  ['/feed.atom', { format: 'atom', bySlug: false }],
]);

/**
 * Answers a public page kept in memory (PublicPageCache) before the api's own hooks and Nest's
 * routing, guards and filters, and without reading the database: the bench's target (issue 18) is
 * a bare Fastify's pace. It is the status pages' early request handler (their context descriptor
 * declares it; startNestApp asks it first). What the route's pipeline adds to a public answer is
 * done here too: the per-address rate limit with its headers (RateLimitGuard; the X-Request-Id
 * header and the request's log line are Fastify's and startNestApp's, as on every route). A hit
 * carries no request metadata: it changes nothing, so no event needs it. Anything else (not kept,
 * over the limit, the limiter failing) goes on to the controller, which answers as before and
 * keeps what it rendered.
 */
@Injectable()
export class PublicPageFastPath implements EarlyRequestHandler {
  constructor(
    private readonly cache: PublicPageCache,
    private readonly limiter: RateLimiter,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
  ) {}

  handle(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const answer = this.cache.enabled ? this.kept(request) : undefined;
    if (!answer) return done();
    const { bucket, limit } = addressLimit(this.config, 'anonymous', request);
    // Most requests count against the lease in memory: answered at once, no promise.
    const leased = this.limiter.takeLeased(bucket, limit);
    if (leased) return this.send(leased, answer, request, reply, done);
    this.limiter.take(bucket, limit).then(
      (decision) => this.send(decision, answer, request, reply, done),
      () => done(),
    );
  }

  private kept(request: FastifyRequest): PageAnswer | undefined {
    const route = request.method === 'GET' || request.method === 'HEAD' ? ROUTES.get(request.routeOptions.url ?? '') : undefined;
    if (!route) return undefined;
    if (route.bySlug) return this.cache.find(route.format, slugAddress(this.config.publicUrl, (request.params as { slug: string }).slug));
    const host = hostName(request);
    return host ? this.cache.find(route.format, hostAddress(request, host)) : undefined;
  }

  private send(decision: RateLimitDecision, answer: PageAnswer, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    // Over the limit: the guard answers the 429 as on every route.
    if (!decision.allowed) return done();
    setRateLimitHeaders(reply, decision);
    sendAnswer(answer, request, reply);
  }
}
