import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { Controller, Get, Injectable, Module } from '@nestjs/common';
import { createLogger, loadConfig } from '@taproot/config';
import { currentRequestMetadata } from '@taproot/messaging';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Runtime } from './runtime';
import { startNestApp, type EarlyRequestHandler, type RunningApp } from './start-nest-app';

/** What the app's own hook saw: it runs after the early handlers. */
const seenByApp: string[] = [];

@Injectable()
class Greeting {
  readonly text = 'early';
}

/** Answers /early itself, through a provider it is given (it is the module's, built by Nest). */
@Injectable()
class Early implements EarlyRequestHandler {
  constructor(private readonly greeting: Greeting) {}

  handle(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (request.url !== '/early') return done();
    void reply.send({ text: this.greeting.text, metadata: currentRequestMetadata() ?? null });
  }
}

@Controller()
class Late {
  @Get('late')
  late() {
    return { metadata: currentRequestMetadata() ?? null };
  }
}

@Module({ controllers: [Late], providers: [Greeting, Early] })
class EarlyModule {}

describe('startNestApp: early request handlers', () => {
  let running: RunningApp;
  before(async () => {
    const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent' });
    // The probes' dependencies are never asked here: only the logger and the host are used.
    const runtime = { config, logger: createLogger('silent') } as unknown as Runtime;
    running = await startNestApp(runtime, { module: EarlyModule }, { name: 'early-spec', port: 0, earlyHandlers: [Early], configure: (fastify) => fastify.addHook('onRequest', (request, _reply, done) => (seenByApp.push(request.url), done())) });
  });
  after(() => running.close());

  test('an early handler answers before the app’s hooks and the request metadata, with X-Request-Id; what it passes on goes through them', async () => {
    const early = await fetch(`${running.url}/early`, { headers: { 'x-request-id': 'early-1' } });
    assert.deepEqual(JSON.parse(await early.text()), { text: 'early', metadata: null });
    assert.equal(early.headers.get('x-request-id'), 'early-1');
    const late = await fetch(`${running.url}/late`, { headers: { 'x-request-id': 'late-1' } });
    assert.equal(JSON.parse(await late.text()).metadata.request_id, 'late-1');
    assert.deepEqual(seenByApp, ['/late']);
  });
});
