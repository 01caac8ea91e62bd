import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { addressLimit, rateLimitHeaders, RateLimiter } from '@taproot/auth';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { hostAddress, hostName, PublicPageCache, sendAnswer, slugAddress } from './public-page.cache';
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
 * Answers a public page kept in memory (PublicPageCache) from a Fastify `onRequest` hook, before
 * Nest's routing, guards and filters and without reading the database: the bench's target (issue
 * 18) is a bare Fastify's pace. What the route's pipeline adds to a public answer is done here too:
 * the per-address rate limit with its headers (RateLimitGuard; Fastify's own hooks add the request
 * id and log the request). Anything else (not kept, over the limit, the limiter failing) goes on to
 * the controller, which answers as before and keeps what it rendered.
 */
@Injectable()
export class PublicPageFastPath implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly cache: PublicPageCache,
    private readonly limiter: RateLimiter,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
  ) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify || !this.cache.enabled) return;
    fastify.addHook('onRequest', (request, reply, done) => this.serve(request, reply, done));
  }

  private serve(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const route = request.method === 'GET' || request.method === 'HEAD' ? ROUTES.get(request.routeOptions.url ?? '') : undefined;
    if (!route) return done();
    let address;
    if (route.bySlug) {
      address = slugAddress(this.config.publicUrl, (request.params as { slug: string }).slug);
    } else {
      const host = hostName(request);
      if (!host) return done();
      address = hostAddress(request, host);
    }
    const answer = this.cache.find(route.format, address);
    if (!answer) return done();
    const { bucket, limit } = addressLimit(this.config, 'anonymous', request);
    this.limiter.take(bucket, limit).then(
      (decision) => {
        // Over the limit: the guard answers the 429 as on every route.
        if (!decision.allowed) return done();
        for (const [name, value] of Object.entries(rateLimitHeaders(decision))) void reply.header(name, value);
        sendAnswer(answer, request, reply);
      },
      () => done(),
    );
  }
}
