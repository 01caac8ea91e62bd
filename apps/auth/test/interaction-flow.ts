/**
 * What the interaction page tests share: the auth app and the API on one scratch database (the
 * API trusting the auth app's tokens), a person with a password in one or more organizations, a
 * registered public client, PKCE, and a cookie-keeping fetch for walking the pages without a
 * browser.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setPassword } from '@taproot/identity';
import { startTestAuth, type TestAuth } from '../src/testing';
import { postJson, startTestApi, type TestApi } from './oauth-test-helpers';

export interface AuthAndApi {
  authUrl: string;
  auth: TestAuth;
  api: TestApi;
  close(): Promise<void>;
}

/** The auth app (`env` overriding its configuration) and an API of the same database that verifies its access tokens. */
export async function startAuthAndApi(env: Record<string, string> = {}): Promise<AuthAndApi> {
  const auth = await startTestAuth({ env });
  const api = await startTestApi({ databaseUrl: auth.databaseUrl, env: auth.apiEnv });
  return {
    authUrl: auth.url,
    auth,
    api,
    close: async () => {
      await api.close();
      await auth.close();
    },
  };
}

export interface Person {
  email: string;
  password: string;
  /** users.id per organization id. */
  users: Map<string, number>;
}

/** A person with a sign-in and an admin user in each of the given new organizations. */
export async function newPerson(env: AuthAndApi, organizations: { name?: string; userName?: string }[] = [{}]): Promise<Person & { organizationIds: string[] }> {
  const email = `person-${randomUUID().slice(0, 8)}@example.test`;
  const password = `pw-${randomUUID()}`;
  const users = new Map<string, number>();
  const ds = env.api.runtime.dataSource;
  for (const org of organizations) {
    const { organizationId } = await env.api.newOrganization();
    if (org.name) await ds.query('UPDATE organizations SET name = $2 WHERE id = $1', [organizationId, org.name]);
    const userId = await env.api.addUser(organizationId, { email, roleKind: 'admin' });
    if (org.userName) await ds.query('UPDATE users SET name = $2 WHERE id = $1', [userId, org.userName]);
    users.set(organizationId, userId);
  }
  await setPassword(ds, email, password, env.api.runtime.clock);
  return { email, password, users, organizationIds: [...users.keys()] };
}

let registrations = 0;

/**
 * A public client (RFC 7591). Each test needs its own (the first authorization fixes a client's
 * organization), so registrations come from rotating loopback addresses: 10 per hour per IP.
 */
export async function registerPublicClient(authUrl: string, redirectUri: string, clientName = 'Test client'): Promise<string> {
  const localAddress = `127.0.${Math.floor(registrations / 250) + 1}.${(registrations++ % 250) + 2}`;
  const res = await postJson(
    `${authUrl}/oauth/register`,
    { client_name: clientName, redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] },
    localAddress,
  );
  if (res.status !== 201 || !res.body.client_id) throw new Error(`registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.client_id;
}

export interface AuthorizationRequest {
  url: string;
  state: string;
  verifier: string;
}

export function authorizationRequest(authUrl: string, clientId: string, redirectUri: string, scope: string): AuthorizationRequest {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(16).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  return { url: `${authUrl}/oauth/authorize?${query}`, state, verifier };
}

/** The client's redirect URI: a local server that records the query of every request it gets. */
export async function startRedirectCatcher(): Promise<{ uri: string; received: URLSearchParams[]; close(): Promise<void> }> {
  const received: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    received.push(new URL(req.url ?? '/', 'http://localhost').searchParams);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { uri: `http://127.0.0.1:${port}/callback`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

export async function exchangeCode(authUrl: string, input: { code: string; clientId: string; redirectUri: string; verifier: string }): Promise<Response> {
  return fetch(`${authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, code_verifier: input.verifier, client_id: input.clientId }),
  });
}

export interface PageResponse {
  status: number;
  headers: Headers;
  body: string;
  url: string;
}

/**
 * A browser without a browser: keeps cookies (by name; the test never needs two of one name),
 * follows redirects within the auth app, and stops at the first redirect leaving it.
 */
export class PageWalker {
  /** The cookies kept, by name (a test may read, change or drop one). */
  readonly cookies = new Map<string, string>();

  constructor(private readonly origin: string) {}

  async get(url: string): Promise<PageResponse> {
    return this.request(url, { method: 'GET' });
  }

  async post(path: string, form: Record<string, string | string[]>): Promise<PageResponse> {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries(form)) for (const v of [value].flat()) body.append(name, v);
    return this.request(path, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  }

  private async request(url: string, init: RequestInit): Promise<PageResponse> {
    let target = new URL(url, this.origin);
    let current = init;
    for (let hops = 0; hops < 10; hops++) {
      const res = await fetch(target, { ...current, redirect: 'manual', headers: { ...(current.headers as Record<string, string>), cookie: this.cookieHeader() } });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair.indexOf('=');
        const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1)];
        if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') this.cookies.delete(name);
        else this.cookies.set(name, value);
      }
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) return { status: res.status, headers: res.headers, body: await res.text(), url: target.href };
      const next = new URL(location, target);
      if (next.origin !== this.origin) return { status: res.status, headers: res.headers, body: '', url: next.href };
      target = next;
      current = { method: 'GET' };
    }
    throw new Error('too many redirects');
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** The interaction uid of a page URL (`/interaction/<uid>`). */
export function interactionUid(pageUrl: string): string {
  const match = /\/interaction\/([^/?#]+)/.exec(pageUrl);
  if (!match) throw new Error(`not an interaction page: ${pageUrl}`);
  return match[1];
}
