import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Runtime } from './runtime';

/**
 * The orchestrator's probes, no token, plain JSON: answered by the HTTP server itself, outside
 * the application's pipeline (guards, filters, interceptors), so a probe every second costs next
 * to nothing and a liveness check does not depend on the application's own machinery.
 */
/** A probe's request: it changes nothing, so it needs no request metadata for events. */
export const isProbe = (request: FastifyRequest): boolean => (request.routeOptions.config as { probe?: boolean }).probe === true;

export function registerProbes(fastify: FastifyInstance, runtime: Pick<Runtime, 'dataSource' | 'bus'>): void {
  /** The process is up. */
  fastify.get('/healthz', { config: { probe: true } }, (_request, reply) => {
    void reply.send({ status: 'ok' });
  });
  /** The database and the bus are reachable: the process can serve. */
  fastify.get('/readyz', { config: { probe: true } }, async (_request, reply) => {
    const [database, bus] = await Promise.all([
      runtime.dataSource.query('SELECT 1').then(
        () => true,
        () => false,
      ),
      runtime.bus.ping(),
    ]);
    const ready = database && bus;
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks: { database: database ? 'up' : 'down', bus: bus ? 'up' : 'down' } });
  });
}
