import { afterAll, beforeAll, beforeEach } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DomainEvent } from '@taproot/messaging';
import type { RunningApp } from '@taproot/runtime';
import { WebhookDeliveryEngine } from '@taproot/webhooks';
import { eventually, startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../../../api/src/testing';
import { created, unique } from '../../../api/test/support/json-api';
import { startDispatcher } from '../../src';
import { WebhookFanOutConsumer } from '../../src/webhook-fan-out.consumer';

export { unique };
export const HOUR = 3_600_000;

/** One request the receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed (every delivery is JSON). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/**
 * A real HTTP server on 127.0.0.1 receiving deliveries: each path answers the statuses it was
 * given in turn (the last one from then on), 200 when given none.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly answers = new Map<string, number[]>();
  private server?: Server;
  private base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, body, json: JSON.parse(body) });
        const statuses = this.answers.get(path) ?? [200];
        res.writeHead(statuses.length > 1 ? statuses.shift()! : statuses[0], { 'content-type': 'text/plain' }).end(`answer to ${path}`);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A URL of its own for a test, answering `statuses` in turn. */
  path(name: string, ...statuses: number[]): string {
    const path = `/${name}-${Math.random().toString(36).slice(2, 10)}`;
    if (statuses.length) this.answers.set(path, statuses);
    return `${this.base}${path}`;
  }

  at(url: string): Received[] {
    const path = new URL(url).pathname;
    return this.received.filter((r) => r.path === path);
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

type Attributes = Record<string, unknown>;

/** A delivery row as the dispatcher keeps it. */
export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: Date | null;
  leased_until: Date | null;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  first_attempt_at: Date | null;
  last_attempt_at: Date | null;
  delivered_at: Date | null;
}

/**
 * The api and the webhook dispatcher in one process on the in-process bus, the engine driven by
 * the test (WEBHOOK_POLL_MS=0, an injected clock starting at the wall clock's time, `advance`),
 * loopback allowed (WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8), and a real receiver.
 */
export interface WebhookWorld {
  api: TestApi;
  engine: WebhookDeliveryEngine;
  /** The dispatcher's consumer of every topic, as the bus calls it. */
  consumer: WebhookFanOutConsumer;
  receiver: WebhookReceiver;
  /** A new organization for each test, so tests never see each other's deliveries. */
  org: TestOrganization;
  now(): Date;
  /** Moves the clock by `ms` and runs the engine's due deliveries to the end. */
  advance(ms: number): Promise<void>;
  send(method: string, path: string, body?: unknown, token?: string): Promise<TestResponse>;
  /** An endpoint of `org` (default: the world's) created through the api. */
  endpoint(attributes: Attributes, organization?: TestOrganization): Promise<{ id: string; secret: string; url: string }>;
  /** An incident created through the api: its id. */
  incident(organization?: TestOrganization, attributes?: Attributes): Promise<string>;
  /** Waits until `url` received `count` requests (and every attempt is recorded); answers them. */
  receivedAt(url: string, count?: number): Promise<Received[]>;
  deliveries(endpointId: string): Promise<DeliveryRow[]>;
  /** Waits until the endpoint has `count` deliveries, none of them in an attempt; answers them. */
  settled(endpointId: string, count: number): Promise<DeliveryRow[]>;
  /** Events written for a record, in order (the outbox keeps them an hour). */
  eventsOf(aggregateId: string): Promise<DomainEvent[]>;
}

export function useWebhookWorld(): WebhookWorld {
  const world = {} as WebhookWorld;
  let api: TestApi | undefined;
  let dispatcher: RunningApp | undefined;
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    await receiver.start();
    let now = Date.now();
    api = await startTestApi({ clock: { now: () => new Date(now) }, env: { WEBHOOK_POLL_MS: '0', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' } });
    dispatcher = await startDispatcher(api.runtime, 0);
    const engine = dispatcher.app.get(WebhookDeliveryEngine);
    const send = (method: string, path: string, body?: unknown, token = world.org.token) => api!.request(method, path, { token, body });
    const deliveries = (endpointId: string): Promise<DeliveryRow[]> => api!.runtime.dataSource.query('SELECT * FROM webhooks_deliveries WHERE endpoint_id = $1 ORDER BY created_at, id', [endpointId]);
    Object.assign(world, {
      api,
      engine,
      consumer: dispatcher.app.get(WebhookFanOutConsumer),
      receiver,
      now: () => new Date(now),
      advance: async (ms: number) => {
        now += ms;
        await engine.runDue();
      },
      send,
      endpoint: async (attributes: Attributes, organization = world.org) => {
        const res = await send('POST', '/v1/webhooks/endpoints', { data: { type: 'webhooks_endpoints', attributes: { name: unique('Receiver'), ...attributes } } }, organization.token);
        const { id, attributes: a } = created(res) as { id: string; attributes: { secret: string; url: string } };
        return { id, secret: a.secret, url: a.url };
      },
      incident: async (organization = world.org, attributes: Attributes = {}) => {
        const res = await send('POST', '/v1/incidents', { data: { type: 'incidents', attributes: { title: unique('Checkout is down'), ...attributes } } }, organization.token);
        return created(res).id as string;
      },
      receivedAt: async (url: string, count = 1) => {
        const got = await eventually(async () => receiver.at(url), (r) => r.length >= count, 10_000);
        await engine.idle();
        return got;
      },
      deliveries,
      settled: async (endpointId: string, count: number) => {
        const rows = await eventually(() => deliveries(endpointId), (r) => r.length >= count && r.every((d) => d.leased_until === null), 10_000);
        await engine.idle();
        return rows;
      },
      eventsOf: async (aggregateId: string) =>
        ((await api!.runtime.dataSource.query('SELECT event FROM outbox WHERE aggregate_id = $1 ORDER BY seq', [aggregateId])) as { event: DomainEvent }[]).map((r) => r.event),
    } satisfies Omit<WebhookWorld, 'org'>);
  });
  beforeEach(async () => {
    world.org = await api!.newOrganization();
  });
  afterAll(async () => {
    await dispatcher?.close();
    await api?.close();
    await receiver.close();
  });
  return world;
}
