import { JSON_API_MEDIA_TYPE, JsonApiError } from '@taproot/json-api';
import { startNestApp, type RunningApp, type Runtime } from '@taproot/runtime';
import type { FastifyInstance } from 'fastify';
import { ApiModule } from './api.module';

/**
 * JSON:API wire rules for every /v1 route (spec, "Wire conventions"): bodies must be sent as
 * `application/vnd.api+json` (415 otherwise) and every response is of that media type.
 */
function enforceMediaType(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(JSON_API_MEDIA_TYPE, { parseAs: 'string', bodyLimit: 1_048_576 }, (_req, body, done) => {
    try {
      done(null, body === '' ? undefined : JSON.parse(body as string));
    } catch {
      done(Object.assign(new Error('malformed JSON'), { code: 'FST_ERR_CTP_INVALID_JSON_BODY', statusCode: 400 }), undefined);
    }
  });
  fastify.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/v1/')) return;
    const hasBody = Number(request.headers['content-length'] ?? 0) > 0 || request.headers['transfer-encoding'] !== undefined;
    const mediaType = request.headers['content-type']?.split(';')[0].trim().toLowerCase();
    if (hasBody && mediaType !== JSON_API_MEDIA_TYPE) {
      throw JsonApiError.of(
        415,
        'Unsupported media type',
        `Content-Type must be ${JSON_API_MEDIA_TYPE}${mediaType ? `, got ${mediaType}` : ''}`,
        'UNSUPPORTED_MEDIA_TYPE',
      );
    }
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/v1/')) void reply.header('content-type', JSON_API_MEDIA_TYPE);
    return payload;
  });
}

export async function startApi(runtime: Runtime, port = runtime.config.port): Promise<RunningApp> {
  const running = await startNestApp(runtime, ApiModule.forRuntime(runtime), { name: 'api', port, configure: enforceMediaType });
  runtime.relay.start();
  return running;
}
