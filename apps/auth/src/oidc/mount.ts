import { RateLimitExceededError, type RateLimiter } from '@taproot/auth';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import type { DataSource } from 'typeorm';

/** Spec, Dynamic client registration: 10 requests per hour per IP. */
export const REGISTRATIONS_PER_HOUR = 10;

/** Where oidc-provider refuses JWTs outright (it does not store them; Taproot does, under their jti). */
const TOKEN_PARAM_PATHS = new Set(['/oauth/revoke', '/oauth/introspect']);
const FORM_LIMIT = 64 * 1024;

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > FORM_LIMIT) throw Object.assign(new Error('request body too large'), { statusCode: 413 });
  }
  return new URLSearchParams(body);
}

/**
 * Hands the protocol paths (`/oauth/*`, `/.well-known/*`) to oidc-provider before Fastify parses
 * anything (the provider reads its own bodies); the rest (health, `/interaction/*`) stays Nest's.
 * RFC 8414 metadata is the OpenID discovery document (a superset of it). UserInfo answers itself
 * for the tokens the provider's handler refuses by design.
 */
export function mountProvider(
  fastify: FastifyInstance,
  provider: Provider,
  opts: {
    registrationLimiter: RateLimiter;
    jwtId: (token: string) => Promise<string | null>;
    /** Taproot's UserInfo answer for a token the provider's handler refuses by design (oidc/userinfo.ts), else null. */
    userinfo: (authorization: string | undefined) => Promise<object | null>;
  },
): void {
  const callback = provider.callback();
  fastify.addHook('onRequest', async (request, reply) => {
    const [path, query] = request.url.split('?', 2);
    if (!path.startsWith('/oauth/') && !path.startsWith('/.well-known/')) return;
    if (path === '/oauth/register' && request.method === 'POST') {
      const decision = await opts.registrationLimiter.hit(`oauth-register:${request.ip}`, REGISTRATIONS_PER_HOUR);
      if (!decision.allowed) {
        const error = new RateLimitExceededError(decision);
        return reply.code(429).headers(error.headers).send(RateLimitExceededError.BODY);
      }
    }
    if (path === '/oauth/userinfo' && (request.method === 'GET' || request.method === 'POST')) {
      const claims = await opts.userinfo(request.headers.authorization);
      if (claims) return reply.header('cache-control', 'no-store').send(claims);
    }
    // Revoking or introspecting a JWT access token: the provider is handed its stored id, and
    // checks the client and performs the revocation itself (the API then refuses the token).
    if (request.method === 'POST' && TOKEN_PARAM_PATHS.has(path) && request.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      const form = await readForm(request.raw);
      const jti = await opts.jwtId(form.get('token') ?? '');
      if (jti) form.set('token', jti);
      // The stream is read: oidc-provider takes the body from `req.body` instead.
      (request.raw as IncomingMessage & { body?: string }).body = form.toString();
    }
    if (path === '/.well-known/oauth-authorization-server') request.raw.url = `/.well-known/openid-configuration${query ? `?${query}` : ''}`;
    // Fastify no longer sends this reply: the headers set so far (the rate limit's) go on the raw response.
    for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    callback(request.raw, reply.raw);
  });
}

/** A registered client gets its organization-facing record; the organization is set at first authorization. */
export function recordRegistrations(provider: Provider, dataSource: DataSource, now: () => Date): void {
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.oidc?.route !== 'registration' || ctx.status !== 201) return;
    const client = ctx.body as { client_id: string; client_name?: string; scope?: string };
    const at = now();
    await dataSource.query(
      `INSERT INTO oauth_applications (client_id, organization_id, name, kind, scope, created_at, updated_at)
       VALUES ($1, NULL, $2, 'registered', $3, $4, $4)`,
      [client.client_id, client.client_name ?? client.client_id, client.scope ?? '', at],
    );
  });
}
