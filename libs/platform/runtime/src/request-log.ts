import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type Log = (...args: unknown[]) => void;

/**
 * `request.log`: the request's child logger (its id bound), made the first time something logs
 * through it. Making a pino child runs the redacting serializer over its bindings, which costs
 * more than answering a public page kept in memory; most requests never log through it.
 */
class RequestLogger {
  private made?: FastifyBaseLogger;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.logger.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}
for (const level of LEVELS) {
  Object.defineProperty(RequestLogger.prototype, level, {
    value(this: RequestLogger, ...args: unknown[]) {
      (this.logger[level] as Log)(...args);
    },
  });
}

/**
 * One line per request, written when it is answered (Fastify's default writes two, "incoming
 * request" and "request completed"): the request (method, redacted URL, host, client address),
 * its status and time, with the request id, through the server's logger (no child logger is made
 * for it). A request that failed is logged as Fastify logs it (`request errored`, error level);
 * Fastify's other lines (errors it answers, a write failing) are unchanged.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    const log = request.server.log as Logger;
    if (!log.isLevelEnabled('info')) return;
    log.info({ reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/** The Fastify options behind the request logs of every app (docs/architecture.md, cross-cutting request handling). */
export function requestLogging(): Pick<FastifyServerOptions, 'logController' | 'childLoggerFactory'> {
  return {
    logController: new OneLinePerRequest(),
    childLoggerFactory: (logger, bindings, options) => new RequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger,
  };
}
