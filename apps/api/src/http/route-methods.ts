import FindMyWay from 'find-my-way';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Which methods a path is served with, so that a request with another method on a served path
 * answers 405 with `Allow` (RFC 9110 §15.5.6) instead of a 404 saying the path does not exist.
 * Fastify's router matches one method at a time, so the routes are recorded a second time, in a
 * router of the same kind (find-my-way, Fastify's own) asked for each method.
 */
export function recordRouteMethods(fastify: FastifyInstance): void {
  const router = FindMyWay();
  fastify.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (!(METHODS as readonly string[]).includes(method) || router.hasRoute(method as never, route.url)) continue;
      router.on(method as never, route.url, () => undefined);
    }
  });
  fastify.decorate('routeMethodsOf', (path: string): string[] => {
    const found = METHODS.flatMap((method) => {
      const match = router.find(method, path);
      return match ? [{ method, params: Object.keys(match.params).length }] : [];
    });
    // The path's own resource is its most specific route: `/v1/causes/properties` is the
    // properties' collection, although `PUT /v1/causes/:id` would also take it as an id.
    const fewest = Math.min(...found.map((f) => f.params));
    return found.filter((f) => f.params === fewest).map((f) => f.method);
  });
}

/** The methods the path of a request no route took is served with; none for a path no route serves. */
export function routeMethodsOf(request: FastifyRequest): string[] {
  const lookup = (request.server as FastifyInstance & { routeMethodsOf?: (path: string) => string[] }).routeMethodsOf;
  return lookup ? lookup(request.url.split('?')[0]) : [];
}
