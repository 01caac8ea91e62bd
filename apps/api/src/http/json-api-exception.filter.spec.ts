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
