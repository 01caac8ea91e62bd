import { inboundAccepts, PLAIN_JSON_URL, RAW_EMAIL_BODY_LIMIT, RAW_EMAIL_MEDIA_TYPES } from '@taproot/alerting';
import { JSON_API_MEDIA_TYPE, JsonApiError } from '@taproot/json-api';
import { startNestApp, type RunningApp, type Runtime } from '@taproot/runtime';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiModule } from './api.module';

/**
 * JSON:API wire rules for every /v1 route (spec, "Wire conventions"): bodies must be sent as
 * `application/vnd.api+json` (415 otherwise; the inbound alert routes also take `application/json`,
 * the email route raw messages) and every response is of that media type (receipts: plain JSON).
 */
function enforceMediaType(fastify: FastifyInstance): void {
  // Fastify's own JSON parsing (secure-json-parse): `__proto__` / `constructor.prototype` keys are refused.
  const secureJson = fastify.getDefaultJsonParser('error', 'error');
  // The exact bytes received stay on the request (`rawBody`): inbound alert signatures are HMACs of them.
  const parseJson = (req: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
    (req as FastifyRequest & { rawBody?: string }).rawBody = body as string;
    if (body === '') return done(null, undefined);
    secureJson(req, body as string, (err, parsed) =>
      err ? done(Object.assign(new Error('malformed JSON'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 }), undefined) : done(null, parsed),
    );
  };
  fastify.addContentTypeParser(JSON_API_MEDIA_TYPE, { parseAs: 'string', bodyLimit: 1_048_576 }, parseJson);
  // Plain JSON is accepted on the inbound alert route only (the onRequest rule below refuses it elsewhere).
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 1_048_576 }, parseJson);
  // Raw emails stay bytes (their charsets are the mapper's business), also kept for the HMAC.
  fastify.removeContentTypeParser('text/plain');
  fastify.addContentTypeParser(RAW_EMAIL_MEDIA_TYPES, { parseAs: 'buffer', bodyLimit: RAW_EMAIL_BODY_LIMIT }, (req, body, done) => {
    (req as FastifyRequest & { rawBody?: Buffer }).rawBody = body as Buffer;
    done(null, body);
  });
  fastify.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/v1/')) return;
    const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    const mediaType = request.headers['content-type']?.split(';')[0].trim().toLowerCase();
    // Monitoring tools post alerts as application/json, mail relays raw emails (docs/alert-sources.md).
    const accepted = mediaType === JSON_API_MEDIA_TYPE || inboundAccepts(request.url, mediaType);
    if (hasBody && !accepted) {
      throw JsonApiError.of(
        415,
        'Unsupported media type',
        `Content-Type must be ${JSON_API_MEDIA_TYPE}${mediaType ? `, got ${mediaType}` : ''}`,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    // A receipt is the reference's plain object; its errors stay JSON:API documents.
    const plain = PLAIN_JSON_URL.test(request.url) && reply.statusCode < 400;
    if (request.url.startsWith('/v1/') && !plain) void reply.header('content-type', JSON_API_MEDIA_TYPE);
    return payload;
  });
}

export async function startApi(runtime: Runtime, port = runtime.config.port): Promise<RunningApp> {
  const running = await startNestApp(runtime, ApiModule.forRuntime(runtime), { name: 'api', port, configure: enforceMediaType });
  runtime.relay.start();
  return running;
}
