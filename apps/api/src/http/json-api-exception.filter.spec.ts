import { test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { ArgumentsHost } from '@nestjs/common';
import { DomainError } from '@taproot/json-api';
import { JsonApiExceptionFilter } from './json-api-exception.filter';

/** Runs the filter on `exception` and answers the reply it built. */
function answer(filter: JsonApiExceptionFilter, exception: unknown) {
  const reply = { statusCode: 0, headers: {} as Record<string, string>, body: undefined as unknown };
  const fastifyReply = {
    header: (name: string, value: string) => ((reply.headers[name] = value), fastifyReply),
    status: (code: number) => ((reply.statusCode = code), fastifyReply),
    send: (body: unknown) => void (reply.body = body),
  };
  const host = { switchToHttp: () => ({ getResponse: () => fastifyReply, getRequest: () => ({ id: 'req-1', method: 'GET', url: '/v1/x' }) }) } as unknown as ArgumentsHost;
  filter.catch(exception, host);
  return reply;
}

const silent = { error: () => undefined } as never;

test("a context's code is answered from its error table: status, title, code, detail and pointer", () => {
  const filter = new JsonApiExceptionFilter(silent, { LAST_OWNER: { status: 409, title: 'Conflict' } });
  const reply = answer(filter, new DomainError('LAST_OWNER', 'User 7 is the only owner', '/data/attributes/role'));
  assert.equal(reply.statusCode, 409);
  assert.deepEqual(reply.body, { errors: [{ title: 'Conflict', status: '409', code: 'LAST_OWNER', detail: 'User 7 is the only owner', source: { pointer: '/data/attributes/role' } }] });
});

test('a code no table declares is a 500 without internals', () => {
  const reply = answer(new JsonApiExceptionFilter(silent, {}), new DomainError('UNDECLARED', 'secret detail'));
  assert.equal(reply.statusCode, 500);
  assert.doesNotMatch(JSON.stringify(reply.body), /secret detail/);
});

test('the database unreachable is a 503 with Retry-After, not a 500; any other failure stays a 500', () => {
  const warned: unknown[] = [];
  const filter = new JsonApiExceptionFilter({ error: () => undefined, warn: (o: unknown) => warned.push(o) } as never, {});
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
  // TypeORM wraps a server's refusal as a QueryFailedError holding the driver's error.
  const shutdown = Object.assign(new Error('QueryFailedError'), { driverError: { code: '57P01', message: 'terminating connection due to administrator command' } });
  for (const exception of [refused, new Error('Connection terminated unexpectedly'), shutdown]) {
    const reply = answer(filter, exception);
    assert.equal(reply.statusCode, 503, String(exception));
    assert.equal(reply.headers['retry-after'], '5');
    assert.deepEqual((reply.body as { errors: { status: string; code: string }[] }).errors.map((e) => [e.status, e.code]), [['503', 'SERVICE_UNAVAILABLE']]);
  }
  assert.equal(warned.length, 3);
  const syntax = Object.assign(new Error('syntax error at or near "FROM"'), { code: '42601' });
  assert.equal(answer(filter, syntax).statusCode, 500);
});
