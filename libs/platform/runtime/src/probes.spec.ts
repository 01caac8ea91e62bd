import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import type { EventBus } from '@taproot/messaging';
import type { DataSource } from 'typeorm';
import { registerProbes } from './probes';

/** The probes over a database and a bus that answer as told (a real outage is the e2e suites' business). */
function probes(databaseUp: boolean, busUp: boolean) {
  const fastify = Fastify();
  const dataSource = { query: () => (databaseUp ? Promise.resolve([{ '?column?': 1 }]) : Promise.reject(new Error('connection refused'))) } as unknown as DataSource;
  const bus = { ping: () => Promise.resolve(busUp) } as unknown as EventBus;
  registerProbes(fastify, { dataSource, bus });
  return fastify;
}

describe('probes', () => {
  test('/healthz answers 200 whatever the dependencies', async () => {
    const res = await probes(false, false).inject({ method: 'GET', url: '/healthz' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  test('/readyz answers 503 naming what is down, 200 when both are up', async () => {
    const down = await probes(false, true).inject({ method: 'GET', url: '/readyz' });
    assert.equal(down.statusCode, 503);
    assert.deepEqual(down.json(), { status: 'unavailable', checks: { database: 'down', bus: 'up' } });
    const busDown = await probes(true, false).inject({ method: 'GET', url: '/readyz' });
    assert.deepEqual([busDown.statusCode, busDown.json().checks], [503, { database: 'up', bus: 'down' }]);
    const up = await probes(true, true).inject({ method: 'GET', url: '/readyz' });
    assert.deepEqual([up.statusCode, up.json().status], [200, 'ready']);
  });
});
