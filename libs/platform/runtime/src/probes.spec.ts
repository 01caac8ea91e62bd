import { describe, expect, test } from '@jest/globals';
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
    expect(res.json()).toEqual({ status: 'ok' });
  });

  test('/readyz answers 503 naming what is down, 200 when both are up', async () => {
    const down = await probes(false, true).inject({ method: 'GET', url: '/readyz' });
    assert.equal(down.statusCode, 503);
    expect(down.json()).toEqual({ status: 'unavailable', checks: { database: 'down', bus: 'up' } });
    const busDown = await probes(true, false).inject({ method: 'GET', url: '/readyz' });
    expect([busDown.statusCode, busDown.json().checks]).toEqual([503, { database: 'up', bus: 'down' }]);
    const up = await probes(true, true).inject({ method: 'GET', url: '/readyz' });
    expect([up.statusCode, up.json().status]).toEqual([200, 'ready']);
  });
});
