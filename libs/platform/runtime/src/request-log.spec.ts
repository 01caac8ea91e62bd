import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { createLogger } from '@taproot/config';
import { requestLogging } from './request-log';

/** A Fastify logging through the platform's logger (as startNestApp sets it up) into `lines`. */
function server(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger(level, 'test', { write: (line: string) => void lines.push(JSON.parse(line)) });
  const fastify = Fastify({ loggerInstance: logger, ...requestLogging(), genReqId: () => 'req-1' });
  fastify.get('/ok', async () => ({ ok: true }));
  fastify.get('/logs', async (request) => {
    request.log.warn({ detail: 'x' }, 'from the handler');
    return {};
  });
  fastify.get('/fails', async () => {
    throw new Error('boom');
  });
  return { fastify, lines };
}

describe('request logs', () => {
  test('one line per request, when it is answered: request, status, time and request id', async () => {
    const { fastify, lines } = server();
    const res = await fastify.inject({ method: 'GET', url: '/ok?token=secret' });
    assert.equal(res.statusCode, 200);
    assert.equal(lines.length, 1, JSON.stringify(lines));
    const [line] = lines;
    assert.equal(line.msg, 'request completed');
    assert.equal(line.level, 30);
    assert.equal(line.reqId, 'req-1');
    assert.deepEqual([(line.req as { method: string }).method, (line.req as { url: string }).url], ['GET', '/ok?token=[redacted]']);
    assert.deepEqual(line.res, { statusCode: 200 });
    assert.equal(typeof line.responseTime, 'number');
  });

  test('a handler logging through request.log gets the request id; a failure is logged at error level', async () => {
    const { fastify, lines } = server();
    await fastify.inject({ method: 'GET', url: '/logs' });
    assert.deepEqual(
      lines.map((l) => [l.msg, l.reqId]),
      [
        ['from the handler', 'req-1'],
        ['request completed', 'req-1'],
      ],
    );
    lines.length = 0;
    assert.equal((await fastify.inject({ method: 'GET', url: '/fails' })).statusCode, 500);
    const errors = lines.filter((l) => (l.level as number) >= 50);
    assert.ok(errors.some((l) => (l.err as { message: string }).message === 'boom' && l.reqId === 'req-1'), JSON.stringify(lines));
  });

  test('above info, an answered request writes nothing', async () => {
    const { fastify, lines } = server('warn');
    await fastify.inject({ method: 'GET', url: '/ok' });
    assert.deepEqual(lines, []);
  });
});
