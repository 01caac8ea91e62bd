import { signBody } from '@taproot/alerting';
import type { TestApi, TestResponse } from '../../src/testing';
import { created, unique } from './json-api';

/** An alert source as its senders know it: its id, its secret and its two inbound paths. */
export interface InboundSource {
  id: string;
  secret: string;
  /** The path of its `webhook_endpoint` (`/v1/alert_sources/{id}/alerts`). */
  path: string;
  /** `/v1/alert_sources/{id}/emails`. */
  emails: string;
}

/** Creates an alert source of the token's organization (a failure showing the answer unless it is a 201); a unique name unless given. */
export async function newAlertSource(api: TestApi, token: string, attributes: Record<string, unknown>): Promise<InboundSource> {
  const body = { data: { type: 'alert_sources', attributes: { name: unique('Source'), ...attributes } } };
  const { id, attributes: a } = created(await api.request('POST', '/v1/alert_sources', { token, body }));
  return { id, secret: a.secret, path: new URL(a.webhook_endpoint).pathname, emails: `/v1/alert_sources/${id}/emails` };
}

/** Posts `raw` to an inbound path as a monitoring tool does: no bearer token, application/json unless `headers` say otherwise. */
export const postInbound = (api: TestApi, path: string, raw: string, headers: Record<string, string> = {}): Promise<TestResponse> =>
  api.request('POST', path, { rawBody: raw, headers: { 'content-type': 'application/json', ...headers } });

/** The signature header of `raw` under a source's secret. */
export const signedBy = (secret: string, raw: string): Record<string, string> => ({ 'x-taproot-signature': signBody(raw, secret) });

/** The alerts a list query answers: an inbound 202 commits the alerts and their read model together. */
export async function listAlerts(api: TestApi, token: string, query: string) {
  return (await api.request('GET', `/v1/alerts?${query}`, { token })).body.data as { id: string; attributes: Record<string, unknown> }[];
}
