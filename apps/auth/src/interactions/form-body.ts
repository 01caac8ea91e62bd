import type { FastifyInstance } from 'fastify';

/** The pages' forms are a few short fields. */
const FORM_BODY_LIMIT = 16 * 1024;

/**
 * Parses the interaction pages' form posts (`application/x-www-form-urlencoded`) into
 * URLSearchParams (`scope` repeats). Other paths' bodies are left unread: oidc-provider reads
 * its own requests' streams (/oauth/token, /oauth/revoke...).
 */
export function registerFormBodyParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('application/x-www-form-urlencoded', async (request: { url: string }, payload: AsyncIterable<Buffer>) => {
    if (!request.url.startsWith('/interaction/')) return undefined;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload) {
      size += chunk.length;
      if (size > FORM_BODY_LIMIT) throw Object.assign(new Error('form body too large'), { statusCode: 413 });
      chunks.push(chunk);
    }
    return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
  });
}
