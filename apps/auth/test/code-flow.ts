/**
 * The authorization code flow for CORE's protocol tests: the auth app (harness, injectable
 * clock) and an API trusting it on one scratch database, a person with a password, and the
 * interaction pages walked over HTTP (PAGES' form contract).
 */
import assert from 'node:assert/strict';
import type { TestAuth } from '../src/testing';
import { authorizationRequest, interactionUid, newPerson, PageWalker, registerPublicClient, startAuthAndApi, startRedirectCatcher } from './interaction-flow';
import { postForm, type Json, type TestApi } from './oauth-test-helpers';

export interface FlowEnv {
  auth: TestAuth;
  api: TestApi;
  redirectUri: string;
  person: { email: string; password: string; organizationId: string; userId: number };
  close(): Promise<void>;
}

export async function startFlowEnv(env: Record<string, string> = {}): Promise<FlowEnv> {
  const both = await startAuthAndApi(env);
  const catcher = await startRedirectCatcher();
  const { email, password, users } = await newPerson(both);
  const [[organizationId, userId]] = users;
  return {
    auth: both.auth,
    api: both.api,
    redirectUri: catcher.uri,
    person: { email, password, organizationId, userId },
    close: async () => {
      await catcher.close();
      await both.close();
    },
  };
}

export const publicClient = (env: FlowEnv) => registerPublicClient(env.auth.url, env.redirectUri);

/**
 * Signs in, picks the organization and approves `scope` for an authorization request (PKCE S256
 * unless `query` overrides it); answers the client's redirect parameters and the verifier.
 */
export async function authorize(env: FlowEnv, clientId: string, scope: string, query: Record<string, string | null> = {}) {
  const request = authorizationRequest(env.auth.url, clientId, env.redirectUri, scope);
  const url = new URL(request.url);
  for (const [name, value] of Object.entries(query)) {
    if (value === null) url.searchParams.delete(name);
    else url.searchParams.set(name, value);
  }
  const done = await approve(env, url.href, scope);
  const params = new URL(done.url).searchParams;
  assert.equal(params.get('state'), request.state);
  return { params, request, status: done.status, body: done.body };
}

/** A user at an authorization URL: signs in, picks the organization, approves `scope`; the last response (the redirect back). */
export async function approve(env: FlowEnv, authorizationUrl: string, scope: string) {
  const browser = new PageWalker(env.auth.url);
  const signIn = await browser.get(authorizationUrl);
  if (!signIn.url.includes('/interaction/')) return signIn;
  const uid = interactionUid(signIn.url);
  await browser.post(`/interaction/${uid}/login`, { email: env.person.email, password: env.person.password });
  const consent = await browser.post(`/interaction/${uid}/organization`, { organization_id: env.person.organizationId });
  return browser.post(`/interaction/${interactionUid(consent.url)}/confirm`, { scope: scope.split(' ') });
}

/** A code for `scope`, exchanged: the token response. */
export async function tokensFor(env: FlowEnv, clientId: string, scope: string): Promise<Json> {
  const { params, request } = await authorize(env, clientId, scope);
  const res = await postForm(`${env.auth.url}/oauth/token`, {
    grant_type: 'authorization_code',
    code: params.get('code') ?? '',
    redirect_uri: env.redirectUri,
    code_verifier: request.verifier,
    client_id: clientId,
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}
