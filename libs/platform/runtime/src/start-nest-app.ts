import { randomUUID } from 'node:crypto';
import type { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { runWithRequestMetadata } from '@taproot/messaging';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions, HookHandlerDoneFunction } from 'fastify';
import { PinoNestLogger } from './nest-logger';
import { isProbe, registerProbes } from './probes';
import { requestLogging } from './request-log';
import type { Runtime } from './runtime';

export interface RunningApp {
  app: NestFastifyApplication;
  url: string;
  close(): Promise<void>;
}

/**
 * A provider that may answer a request before the app's own hooks (request metadata, media types,
 * Nest's middleware) run: what it answers costs next to nothing (a public page kept in memory).
 */
export interface EarlyRequestHandler {
  /** Answers the request, or calls `done()` to let the app handle it as usual. */
  handle(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
}

export interface NestAppOptions {
  name: string;
  port: number;
  /** Providers of the module asked first for every request, in order (a context's descriptor declares them). */
  earlyHandlers?: Type<EarlyRequestHandler>[];
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
    ...requestLogging(),
    // Request ids let a 500 be traced to its log line; a client's X-Request-Id is kept.
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    ...(opts.frameworkErrors ? { frameworkErrors: opts.frameworkErrors } : {}),
  });
  const fastify = adapter.getInstance() as unknown as FastifyInstance;
  // Hooks run in the order added: these come before the app's own. Their providers exist once Nest
  // has built the module, which is before the server listens.
  const early: EarlyRequestHandler[] = [];
  (opts.earlyHandlers ?? []).forEach((_type, i) => fastify.addHook('onRequest', (request, reply, done) => early[i].handle(request, reply, done)));
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
  for (const type of opts.earlyHandlers ?? []) early.push(app.get(type, { strict: false }));
  await app.listen(opts.port, runtime.config.host);
  const address = app.getHttpServer().address();
  const url = `http://${runtime.config.host}:${typeof address === 'object' && address ? address.port : opts.port}`;
  logger.info({ url }, `${opts.name} listening`);
  return { app, url, close: () => app.close() };
}
