import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { DomainError, JsonApiError, JSON_API_MEDIA_TYPE, type ErrorObject, type ErrorTable } from '@taproot/json-api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from '@taproot/config';
import { RateLimitExceededError } from '@taproot/auth';
import { isTransientFailure } from '@taproot/messaging';
import { routeMethodsOf } from './route-methods';

const TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  406: 'Not acceptable',
  409: 'Conflict',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable entity',
  429: 'Too many requests',
  503: 'Service unavailable',
};

/** How long a client should wait before retrying while the database or the broker is away. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Framework and parser failures that are the client's fault, by Fastify error code. */
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; code: string; detail: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', detail: 'The request body is not valid JSON' },
  // Valid JSON, refused all the same: such a member could pollute prototypes wherever the body is copied.
  FORBIDDEN_PROTOTYPE_MEMBER: {
    status: 400,
    code: 'FORBIDDEN_PROTOTYPE_MEMBER',
    detail: 'The request body has a member named __proto__, or a constructor member holding prototype: such members are refused',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'MALFORMED_JSON', detail: 'The request body is empty' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'BODY_TOO_LARGE', detail: 'The request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    detail: `Content-Type must be ${JSON_API_MEDIA_TYPE}`,
  },
};

/**
 * The one place errors become responses (architecture rule 8): an errors list with `title`,
 * string `status`, `code` and `detail`. Unknown failures are a 500 carrying the request id and
 * nothing of the internals.
 */
@Catch()
export class JsonApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    /** Every context's codes and their answers (the descriptors' error tables). */
    private readonly codes: ErrorTable<string> = {},
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (exception instanceof RateLimitExceededError) {
      for (const [name, value] of Object.entries(exception.headers)) void reply.header(name, value);
      void reply.status(429).header('content-type', JSON_API_MEDIA_TYPE).send(RateLimitExceededError.BODY);
      return;
    }
    const { status, errors, headers } = this.toErrors(exception, request);
    for (const [name, value] of Object.entries(headers)) void reply.header(name, value);
    void reply.status(status).header('content-type', JSON_API_MEDIA_TYPE).send({ errors });
  }

  private toErrors(exception: unknown, request: FastifyRequest): { status: number; errors: ErrorObject[]; headers: Record<string, string> } {
    // No route took the request: whatever failed on the way (a body a QUERY sent without a
    // Content-Type, the missing route itself), a path served with other methods answers 405.
    const allowed = request.is404 ? routeMethodsOf(request) : [];
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      const detail = `${request.method} is not allowed on ${request.url.split('?')[0]}; allowed: ${allowed.join(', ')}`;
      return { status: 405, errors: [error(405, 'METHOD_NOT_ALLOWED', detail)], headers: { allow: allowed.join(', ') } };
    }
    if (exception instanceof JsonApiError) return { status: exception.status, errors: exception.errors, headers: exception.headers };
    // A code no table answers falls through to the 500 below: a context threw a code it did not declare.
    if (exception instanceof DomainError && this.codes[exception.code]) {
      const { status, title } = this.codes[exception.code];
      const source = exception.pointer ? { source: { pointer: exception.pointer } } : {};
      return { status, errors: [{ title, status: String(status), code: exception.code, detail: exception.detail, ...source }], headers: {} };
    }
    const fastifyCode = (exception as { code?: unknown })?.code;
    if (typeof fastifyCode === 'string' && FASTIFY_CLIENT_ERRORS[fastifyCode]) {
      const e = FASTIFY_CLIENT_ERRORS[fastifyCode];
      return { status: e.status, errors: [error(e.status, e.code, e.detail)], headers: {} };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status < 500) {
        const detail = status === 404 ? `No route for ${request.method} ${request.url.split('?')[0]}` : exception.message;
        return { status, errors: [error(status, null, detail)], headers: {} };
      }
    }
    // The database (or the broker) is away: the request did not happen and a retry will work once
    // it is back, which /readyz reports; a 500 would say the request itself is at fault.
    if (isTransientFailure(exception)) {
      this.logger.warn({ err: String(exception), reqId: request.id }, 'a dependency is unavailable; answered 503');
      const detail = `A dependency of the API (its database or event bus) is unavailable; retry after ${UNAVAILABLE_RETRY_AFTER_SECONDS} seconds`;
      return { status: 503, errors: [error(503, 'SERVICE_UNAVAILABLE', detail)], headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } };
    }
    this.logger.error({ err: exception, reqId: request.id }, 'unhandled error');
    return {
      status: 500,
      errors: [{ title: 'Internal server error', status: '500', code: 'INTERNAL', detail: `Request ${request.id} failed; see the server log` }],
      headers: {},
    };
  }
}

function error(status: number, code: string | null, detail: string): ErrorObject {
  return { title: TITLES[status] ?? 'Error', status: String(status), code, detail };
}
