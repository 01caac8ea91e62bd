import { Injectable, SetMetadata, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { principalSubject, type CallerRequest } from '@taproot/auth';
import type { Logger } from '@taproot/config';
import { JsonApiError } from '@taproot/json-api';
import { joinRequestTransactions } from '@taproot/messaging';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { from, mergeMap, of, type Observable } from 'rxjs';
import type { DataSource } from 'typeorm';
import { IDEMPOTENCY_HEADER, parseIdempotencyKey, REPLAYED_HEADER, requestBodyHash } from './idempotency-key';
import { IdempotencyStore, type IdempotencyRecord, type IdempotencyScope, type IdempotentRequest, type StoredResponse } from './idempotency-store';

const SECRET_ANSWER = 'taproot:secret-answer';
/**
 * Marks a route whose success answer shows a secret once (a new API key's token): an
 * Idempotency-Key never stores it, so a retry learns what was created but not the secret.
 */
export const SecretAnswer = () => SetMetadata(SECRET_ANSWER, true);

/** A request that owns its key: its answer is stored for retries. */
interface Claim {
  scope: IdempotencyScope;
  request: IdempotentRequest;
  /** Its success answer shows a secret (`SecretAnswer`). */
  secret: boolean;
  /** Its command's transaction committed the key's record. */
  committed: boolean;
  /** Another request holds the key: this one's refusal is not the key's result. */
  refused: boolean;
}

const claims = new WeakMap<FastifyRequest, Claim>();

/** Headers that belong to the result (not to the one exchange, like the request id or rate limits). */
const REPLAYED_HEADERS = ['content-type', 'location', 'deprecation', 'x-api-warn'];

/** A server failure or a rate refusal is not the request's result: a retry runs again. */
const isStorable = (status: number): boolean => status < 500 && status !== 429;

function keyError(status: number, title: string, detail: string, code: string, meta?: Record<string, unknown>): JsonApiError {
  return new JsonApiError(status, [{ title, status: String(status), code, detail, source: { header: IDEMPOTENCY_HEADER }, ...(meta ? { meta } : {}) }]);
}

const inFlight = (): JsonApiError =>
  keyError(409, 'Idempotency-Key in use', `A request with this ${IDEMPOTENCY_HEADER} is still being processed; retry later`, 'IDEMPOTENCY_KEY_IN_USE');

/**
 * `Idempotency-Key` on every authenticated POST under /v1 (docs/decisions/0005-idempotency-keys.md):
 * a retry with the same key and request gets the first answer again; the key's record commits in
 * the transaction of the request's command, so a retry after an answer lost in a crash creates
 * nothing twice. Without the header it does nothing (no query).
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly store: IdempotencyStore;

  constructor(dataSource: DataSource) {
    this.store = new IdempotencyStore(dataSource);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & CallerRequest>();
    const header = request.headers['idempotency-key'];
    // Public routes (inbound alerts: deduplicated by their own keys) have no principal to scope a key by.
    if (header === undefined || request.method !== 'POST' || !request.url.startsWith('/v1/') || !request.caller) return next.handle();
    const scope: IdempotencyScope = { organizationId: request.caller.organizationId, principal: principalSubject(request.caller), key: parseIdempotencyKey(header) };
    const sent: IdempotentRequest = { method: request.method, path: request.url, bodyHash: requestBodyHash(request.body) };
    return from(this.store.find(scope)).pipe(
      mergeMap((record) => {
        if (record) return of(replay(record, sent, context.switchToHttp().getResponse<FastifyReply>()));
        this.claim(request, scope, sent, Reflect.getMetadata(SECRET_ANSWER, context.getHandler()) === true);
        return next.handle();
      }),
    );
  }

  private claim(request: FastifyRequest, scope: IdempotencyScope, sent: IdempotentRequest, secret: boolean): void {
    const claim: Claim = { scope, request: sent, secret, committed: false, refused: false };
    claims.set(request, claim);
    joinRequestTransactions({
      // The request's first committed transaction carries the record (a create, an action).
      write: async (manager, events) => {
        if (claim.committed) return;
        const first = events[0];
        const resource = first ? { type: first.aggregate_type, id: first.aggregate_id } : null;
        if (await this.store.claim(manager, scope, sent, resource)) return;
        claim.refused = true;
        throw inFlight();
      },
      committed: () => {
        claim.committed = true;
      },
    });
  }
}

/** The first answer again, or why the key cannot give it. */
function replay(record: IdempotencyRecord, sent: IdempotentRequest, reply: FastifyReply): string | undefined {
  if (record.method !== sent.method || record.path !== sent.path) {
    throw keyError(422, 'Idempotency-Key reused for another request', `${IDEMPOTENCY_HEADER} was first sent with ${record.method} ${record.path}; use a new key for a new request`, 'IDEMPOTENCY_KEY_MISMATCH');
  }
  if (record.bodyHash !== sent.bodyHash) {
    throw keyError(422, 'Idempotency-Key reused with a different body', `${IDEMPOTENCY_HEADER} was first sent with another body; use a new key for a new request`, 'IDEMPOTENCY_KEY_MISMATCH');
  }
  if (!record.response) {
    // Committed, answer not stored: still being sent, the process stopped before it was, or it
    // showed a secret. Running the request again would repeat its change: the retry learns what it changed.
    const what = record.resource ? `; it changed ${record.resource.type} ${record.resource.id}` : '';
    throw keyError(
      409,
      'Idempotency-Key request committed, answer not recorded',
      `The request first sent with this ${IDEMPOTENCY_HEADER} committed at ${record.createdAt.toISOString()}, but its answer is not recorded (still being sent, lost when the process stopped, or it showed a secret)${what}; read the resource instead of retrying`,
      'IDEMPOTENCY_KEY_ANSWER_LOST',
      record.resource ? { resource: record.resource } : undefined,
    );
  }
  void reply.status(record.response.status);
  for (const [name, value] of Object.entries(record.response.headers)) void reply.header(name, value);
  void reply.header(REPLAYED_HEADER, 'true');
  return record.response.body ?? undefined;
}

/**
 * Stores each claimed request's answer as it is sent (after the media-type hook set its type), on
 * the record its transaction committed or as a new one when it committed none. A failure to store
 * is logged, not answered: the client has its answer, a retry then gets the 409 or runs again.
 */
export function storeIdempotentAnswers(fastify: FastifyInstance, dataSource: DataSource, logger: Logger): void {
  const store = new IdempotencyStore(dataSource);
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const claim = claims.get(request);
    // Most answers have no claim: their bodies are not copied into a string.
    if (!claim) return done(null, payload);
    const body = payload === null || payload === undefined ? null : typeof payload === 'string' || Buffer.isBuffer(payload) ? payload.toString() : undefined;
    if (claim.refused || body === undefined || !isStorable(reply.statusCode) || (claim.secret && reply.statusCode < 400)) return done(null, payload);
    claims.delete(request);
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const response: StoredResponse = { status: reply.statusCode, headers, body };
    (claim.committed ? store.complete(claim.scope, response) : store.record(claim.scope, claim.request, response)).then(
      () => done(null, payload),
      (error: unknown) => {
        logger.warn({ organization_id: claim.scope.organizationId, err: String(error) }, 'idempotency key answer not stored');
        done(null, payload);
      },
    );
  });
}
