import { randomUUID } from 'node:crypto';
import { request, type IncomingHttpHeaders } from 'node:http';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the api app's test harness (not exported by @taproot/api), for an API trusting the auth app
import { startTestApi, type TestApi } from '../../api/src/testing';

export { startTestApi, type TestApi };

/** Protocol responses are arbitrary JSON documents the assertions pick apart. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A JSON post from a chosen local address (fetch cannot pick one; limits are per client IP). */
export function postJson(url: string, body: unknown, localAddress = '127.0.0.1'): Promise<{ status: number; body: Json; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', localAddress, headers: { 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

export async function postForm(url: string, form: Record<string, string>, basic?: { id: string; secret: string }): Promise<{ status: number; body: Json; headers: Headers }> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(basic.id)}:${encodeURIComponent(basic.secret)}`).toString('base64')}`;
  const res = await fetch(url, { method: 'POST', headers, body: new URLSearchParams(form) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
}

/** UserInfo with the token in the Authorization header (spec: "with the same bearer header"). */
export async function userinfo(authUrl: string, accessToken: string): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(`${authUrl}/oauth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

export interface TestApplication {
  clientId: string;
  clientSecret: string;
  serviceUserId: number;
}

/** A client-credentials application as the contract stores it: a Client payload and its application row. */
export async function insertClientCredentialsApp(api: TestApi, organizationId: string, scope: string): Promise<TestApplication> {
  const serviceUserId = await api.addUser(organizationId, { roleKind: 'admin' });
  const clientId = `app_${randomUUID()}`;
  const clientSecret = randomUUID();
  const client = {
    client_id: clientId,
    client_secret: clientSecret,
    client_name: 'Service app',
    grant_types: ['client_credentials'],
    response_types: [],
    redirect_uris: [],
    token_endpoint_auth_method: 'client_secret_basic',
    scope,
    organization_id: organizationId,
    service_user_id: serviceUserId,
  };
  const now = new Date();
  await api.runtime.dataSource.query(`INSERT INTO oauth_payloads (model, id, payload) VALUES ('Client', $1, $2)`, [clientId, JSON.stringify(client)]);
  await api.runtime.dataSource.query(
    `INSERT INTO oauth_applications (client_id, organization_id, name, kind, scope, service_user_id, created_at, updated_at)
     VALUES ($1, $2, 'Service app', 'client_credentials', $3, $4, $5, $5)`,
    [clientId, organizationId, scope, serviceUserId, now],
  );
  return { clientId, clientSecret, serviceUserId };
}
