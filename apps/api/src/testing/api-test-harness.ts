import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import { createLogger, loadConfig, type Clock } from '@taproot/config';
import { generateApiKeyToken, hashToken, tokenPrefix } from '@taproot/auth';
import { createOrganization } from '@taproot/identity';
import type { EventBus } from '@taproot/messaging';
import { createScratchDatabase } from '@taproot/persistence';
import { openRuntime, type Runtime } from '@taproot/runtime';
import { ALL_MIGRATIONS } from '../migrations';
import { startApi } from '../start-api';

export interface TestOrganization {
  organizationId: string;
  token: string;
}

export interface TestApi {
  url: string;
  runtime: Runtime;
  /** The Nest app (its Fastify instance lists the registered routes). */
  app: NestFastifyApplication;
  /** A fresh tenant per test, so tests never see each other's rows. */
  newOrganization(): Promise<TestOrganization>;
  /** A key row written as the API keys endpoint would, for a caller the API cannot create (any kind, role or user). */
  issueApiKey(organizationId: string, opts?: TestKeyOptions): Promise<string>;
  /** A user of the organization with the given role kinds' roles (the organization's system roles). */
  addUser(organizationId: string, opts: { email?: string; roleKind: string; onCallRoleKind?: string }): Promise<number>;
  request(method: string, path: string, opts?: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestKeyOptions {
  kind?: 'global' | 'team' | 'personal';
  userId?: number | null;
  groupId?: string | null;
  roleId?: string | null;
  onCallRoleId?: string | null;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** Raw body sent as is (for malformed JSON and invalid UTF-8 tests). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  // Tests assert on arbitrary JSON documents.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export async function startTestApi(opts: { databaseUrl?: string; kafkaBrokers?: string; bus?: EventBus; clock?: Clock; env?: Record<string, string> } = {}): Promise<TestApi> {
  const config = loadConfig({
    DATABASE_URL: opts.databaseUrl ?? (await createScratchDatabase()),
    KAFKA_BROKERS: opts.kafkaBrokers,
    PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ...opts.env,
  });
  const runtime = await openRuntime(config, createLogger(config.logLevel), {
    migrations: ALL_MIGRATIONS,
    bus: opts.bus,
    clock: opts.clock,
    poolSize: 4,
  });
  // PORT 0 unless `env` names one (a test that must know the public URL before the api starts).
  const app = await startApi(runtime, config.port);
  const request = async (method: string, path: string, o: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...o.headers };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    let body: string | Uint8Array | undefined = o.rawBody;
    if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/vnd.api+json';
    }
    const res = await fetch(`${app.url}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Non-JSON bodies are returned as text for the assertion to show.
    }
    return { status: res.status, headers: res.headers, body: parsed };
  };
  return {
    url: app.url,
    runtime,
    app: app.app,
    request,
    newOrganization: () =>
      runtime.dataSource.transaction(async (m) => {
        const created = await createOrganization(m, { name: `Test org ${randomUUID().slice(0, 8)}`, ownerEmail: 'owner@example.test' });
        return { organizationId: created.organizationId, token: created.token };
      }),
    issueApiKey: async (organizationId, opts = {}) => {
      const token = generateApiKeyToken();
      await runtime.dataSource.query(
        `INSERT INTO api_keys (id, organization_id, user_id, group_id, name, kind, token_prefix, token_hash, role_id, on_call_role_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [randomUUID(), organizationId, opts.userId ?? null, opts.groupId ?? null, `Key ${randomUUID()}`, opts.kind ?? 'global', tokenPrefix(token), hashToken(token), opts.roleId ?? null, opts.onCallRoleId ?? null],
      );
      return token;
    },
    addUser: async (organizationId, { email = `${randomUUID().slice(0, 8)}@example.test`, roleKind, onCallRoleKind = roleKind }) => {
      const [{ id }] = await runtime.dataSource.query(
        `INSERT INTO users (organization_id, email, name, role, role_id, on_call_role_id)
         VALUES ($1, $2, 'Someone', $3,
                 (SELECT id FROM roles WHERE organization_id = $1 AND system_role = $3),
                 (SELECT id FROM on_call_roles WHERE organization_id = $1 AND system_role = $4))
         RETURNING id`,
        [organizationId, email, roleKind, onCallRoleKind],
      );
      return id;
    },
    close: async () => {
      await app.close();
      await runtime.close();
    },
  };
}

/**
 * Reads until `done` holds, for read models a write does not wait for (the audit log). Fails
 * with the last value after `timeoutMs`.
 */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * Waits, when needed, until at least `seconds` remain of the wall clock's current minute. The
 * rate limiter slides over minute windows: a burst that must hit a limit should not straddle two
 * (window edges are tested separately with an injected clock).
 */
export async function withinOneMinute(seconds = 20): Promise<void> {
  const now = new Date();
  const left = 60 - (now.getUTCSeconds() + now.getUTCMilliseconds() / 1000);
  if (left < seconds) await new Promise((r) => setTimeout(r, (left + 0.5) * 1000));
}
