import 'reflect-metadata';
import { createLogger, loadConfig, type Clock } from '@taproot/config';
import { createScratchDatabase, freePort } from '@taproot/persistence';
import { openRuntime, type Runtime } from '@taproot/runtime';
import type Provider from 'oidc-provider';
import { startAuth } from '../start-auth';

/** The wall clock moved forward by `advance` (tests skip a code's 60 s instead of sleeping). */
export interface TestClock extends Clock {
  advance(seconds: number): void;
}

export function offsetClock(): TestClock {
  let offsetMs = 0;
  return { now: () => new Date(Date.now() + offsetMs), advance: (seconds) => void (offsetMs += seconds * 1000) };
}

/** Audience of the test tokens: the API started with `apiEnv` expects it, whatever its port. */
export const TEST_API_AUDIENCE = 'http://api.taproot.test';

export interface TestAuth {
  /** The issuer and base URL of the auth app. */
  url: string;
  databaseUrl: string;
  runtime: Runtime;
  clock: TestClock;
  provider: Provider;
  /** Pass to `startTestApi({ databaseUrl, env: auth.apiEnv })`: an API trusting this auth app. */
  apiEnv: Record<string, string>;
  /** Stops and starts the app on the same port and database (after a key rotation, say). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The auth app on a scratch database (already migrated by the test runner) and a free port,
 * its expiry checks on an injectable clock. `env` overrides configuration (e.g.
 * OAUTH_REFRESH_GRACE_SECONDS).
 */
export async function startTestAuth(opts: { databaseUrl?: string; clock?: TestClock; env?: Record<string, string> } = {}): Promise<TestAuth> {
  const databaseUrl = opts.databaseUrl ?? (await createScratchDatabase());
  const port = await freePort();
  const clock = opts.clock ?? offsetClock();
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    AUTH_PORT: String(port),
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    OAUTH_AUDIENCE: TEST_API_AUDIENCE,
    OAUTH_KEY_ENCRYPTION_KEY: 'test-key-encryption-key-0123456789abcdef',
    ...opts.env,
  });
  const runtime = await openRuntime(config, createLogger(config.logLevel), { migrations: [], clock, poolSize: 4 });
  let app = await startAuth(runtime, port);
  const url = config.authIssuer;
  return {
    url,
    databaseUrl,
    runtime,
    clock,
    get provider() {
      return app.provider;
    },
    apiEnv: { OAUTH_ISSUER: url, OAUTH_AUDIENCE: TEST_API_AUDIENCE, OAUTH_JWKS_URL: `${url}/oauth/discovery/keys` },
    restart: async () => {
      await app.close();
      app = await startAuth(runtime, port);
    },
    close: async () => {
      await app.close();
      await runtime.close();
    },
  };
}
