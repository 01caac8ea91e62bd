import { randomUUID } from 'node:crypto';
import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { runWithRequestMetadata } from '@taproot/messaging';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { PinoNestLogger } from './nest-logger';
import { isProbe, registerProbes } from './probes';
import type { Runtime } from './runtime';

export interface RunningApp {
  app: NestFastifyApplication;
  url: string;
  close(): Promise<void>;
}

export interface NestAppOptions {
  name: string;
  port: number;
  /** Fastify hooks and parsers registered before Nest mounts its routes. */
  configure?: (fastify: FastifyInstance) => void;
  /** Answers the errors Fastify raises before any hook (a path that does not percent-decode). */
  frameworkErrors?: FastifyServerOptions['frameworkErrors'];
}

/** Boots one NestJS app on the Fastify adapter, logging through the runtime's pino logger. */
export async function startNestApp(runtime: Runtime, module: DynamicModule, opts: NestAppOptions): Promise<RunningApp> {
  const logger = runtime.logger.child({ app: opts.name });
  const adapter = new FastifyAdapter({
    loggerInstance: logger,
    // Request ids let a 500 be traced to its log line; a client's X-Request-Id is kept.
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    ...(opts.frameworkErrors ? { frameworkErrors: opts.frameworkErrors } : {}),
  });
  const fastify = adapter.getInstance() as unknown as FastifyInstance;
  // Every event a request causes carries where it came from (the audit log reads it).
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (isProbe(request)) return done();
    const userAgent = request.headers['user-agent'];
    runWithRequestMetadata(
      { request_id: String(request.id), ip_address: request.ip ?? null, user_agent: typeof userAgent === 'string' ? userAgent.slice(0, 512) : null, session_id: null },
      done,
    );
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', request.id);
    done(null, payload);
  });
  registerProbes(fastify, runtime);
  opts.configure?.(fastify);
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
  });
  await app.listen(opts.port, runtime.config.host);
  const address = app.getHttpServer().address();
  const url = `http://${runtime.config.host}:${typeof address === 'object' && address ? address.port : opts.port}`;
  logger.info({ url }, `${opts.name} listening`);
  return { app, url, close: () => app.close() };
}
