import { CONTEXTS } from '@taproot/contexts';
import { applySparseFieldsets, assertStorableBody, assertStorableTarget, decodeUtf8Body, JSON_API_MEDIA_TYPE, JsonApiError, sparseFieldsetsOf } from '@taproot/json-api';
import { storeIdempotentAnswers } from '@taproot/resources';
import { startNestApp, type RunningApp, type Runtime } from '@taproot/runtime';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiModule } from './api.module';
import { recordRouteMethods } from './http/route-methods';

/** What the contexts' descriptors let through besides JSON:API (the inbound alert routes: docs/alert-sources.md). */
const INBOUND = CONTEXTS.flatMap((context) => (context.inbound ? [context.inbound] : []));

/**
 * JSON:API wire rules for every /v1 route (spec, "Wire conventions"): bodies must be sent as
 * `application/vnd.api+json` (415 otherwise, unless a context's descriptor takes that media type on
 * that route) and every response is of that media type (unless a descriptor's route answers plain JSON).
 */
function enforceMediaType(fastify: FastifyInstance): void {
  // Fastify's own JSON parsing (secure-json-parse): `__proto__` / `constructor.prototype` keys are refused.
  const secureJson = fastify.getDefaultJsonParser('error', 'error');
  // The exact text received stays on the request (`rawBody`): inbound alert signatures are HMACs of it.
  // Text that cannot be stored (invalid UTF-8, NUL, unpaired surrogates) is refused here, naming the member.
  const parseJson = (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
    let text: string;
    try {
      text = decodeUtf8Body(body as Buffer);
    } catch (error) {
      return done(error as Error);
    }
    (req as FastifyRequest & { rawBody?: string }).rawBody = text;
    if (text === '') return done(null, undefined);
    secureJson(req, text, (err, parsed) => {
      if (err) {
        // The parser's error does not say why; text that is JSON all the same was refused for its members.
        const code = isJson(text) ? 'FORBIDDEN_PROTOTYPE_MEMBER' : 'FST_ERR_CTP_INVALID_JSON_BODY';
        return done(Object.assign(new Error('malformed JSON'), { code, statusCode: 400 }), undefined);
      }
      try {
        assertStorableBody(parsed);
      } catch (error) {
        return done(error as Error);
      }
      done(null, parsed);
    });
  };
  fastify.addContentTypeParser(JSON_API_MEDIA_TYPE, { parseAs: 'buffer', bodyLimit: 1_048_576 }, parseJson);
  // Plain JSON is accepted where a descriptor says so only (the onRequest rule below refuses it elsewhere).
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 1_048_576 }, parseJson);
  // Other JSON media types a context's routes take (SCIM), parsed with the same checks.
  const jsonMediaTypes = INBOUND.flatMap((inbound) => inbound.json ?? []);
  if (jsonMediaTypes.length > 0) fastify.addContentTypeParser(jsonMediaTypes, { parseAs: 'buffer', bodyLimit: 1_048_576 }, parseJson);
  // Raw bodies (emails) stay bytes (their charsets are the mapper's business), also kept for the HMAC.
  for (const { raw } of INBOUND) {
    if (!raw) continue;
    for (const mediaType of raw.mediaTypes) if (fastify.hasContentTypeParser(mediaType)) fastify.removeContentTypeParser(mediaType);
    fastify.addContentTypeParser(raw.mediaTypes, { parseAs: 'buffer', bodyLimit: raw.bodyLimit }, (req, body, done) => {
      (req as FastifyRequest & { rawBody?: Buffer }).rawBody = body as Buffer;
      done(null, body);
    });
  }
  // Callback hooks (not async): every request runs them, and they allocate no promise.
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (!request.url.startsWith('/v1/')) return done();
    try {
      assertStorableTarget(request.url);
    } catch (error) {
      return done(error as Error);
    }
    const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    const mediaType = request.headers['content-type']?.split(';')[0].trim().toLowerCase();
    const accepted = mediaType === JSON_API_MEDIA_TYPE || INBOUND.some((inbound) => inbound.accepts(request.url, mediaType));
    if (hasBody && !accepted) {
      return done(
        JsonApiError.of(415, 'Unsupported media type', `Content-Type must be ${JSON_API_MEDIA_TYPE}${mediaType ? `, got ${mediaType}` : ''}`, 'UNSUPPORTED_MEDIA_TYPE'),
      );
    }
    done();
  });
  // Sparse fieldsets (`fields[incidents]=title,status`): clients that read a few fields, such as
  // the hosted API's MCP server filling a model's context, get only those.
  fastify.addHook('preSerialization', (request, reply, payload, done) => {
    const fieldsets = reply.statusCode < 400 && request.url.startsWith('/v1/') ? sparseFieldsetsOf(request.query) : null;
    done(null, fieldsets ? applySparseFieldsets(payload, fieldsets) : payload);
  });
  fastify.addHook('onSend', (request, reply, payload, done) => {
    // A plain answer (an alert receipt: the reference's object); its errors stay JSON:API documents.
    if (request.url.startsWith('/v1/') && !(reply.statusCode < 400 && INBOUND.some((inbound) => inbound.plainJson?.test(request.url)))) {
      void reply.header('content-type', JSON_API_MEDIA_TYPE);
    }
    done(null, payload);
  });
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * What Fastify refuses before any hook, as JSON:API errors too: a path that does not
 * percent-decode (`%ED%A0%80`), or a path parameter over its length limit. The latter is a 404:
 * no record has an id or slug that long, and the URI as a whole is not too long to read (414).
 */
const answerFrameworkError = (error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void => {
  const { status, errors } =
    error.code === 'FST_ERR_BAD_URL'
      ? JsonApiError.of(400, 'Invalid characters', 'The request path is not valid percent-encoded UTF-8', 'INVALID_CHARACTERS')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? JsonApiError.of(404, 'Not found', 'No record is named by a path segment over 100 characters long', 'NOT_FOUND')
        : JsonApiError.of(error.statusCode ?? 400, 'Bad request', error.message, error.code ?? null);
  void reply.status(status).header('content-type', JSON_API_MEDIA_TYPE).send({ errors });
};

export async function startApi(runtime: Runtime, port = runtime.config.port): Promise<RunningApp> {
  const configure = (fastify: FastifyInstance): void => {
    enforceMediaType(fastify);
    recordRouteMethods(fastify);
    // After the media-type hook: a replayed answer keeps the type it was sent with.
    storeIdempotentAnswers(fastify, runtime.dataSource, runtime.logger);
  };
  const earlyHandlers = CONTEXTS.flatMap((context) => context.earlyRequestHandlers ?? []);
  const running = await startNestApp(runtime, ApiModule.forRuntime(runtime), { name: 'api', port, configure, earlyHandlers, frameworkErrors: answerFrameworkError });
  runtime.relay.start();
  runtime.inboxPruner.start();
  return running;
}
