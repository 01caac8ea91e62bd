import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { signBody } from '@taproot/alerting';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { newAlertSource, postInbound, listAlerts, type InboundSource } from './support/alert-sources';

// Jest runs from the workspace root (jest.config.mjs).
const FIXTURES = join(process.cwd(), 'libs/alerting/src/ingestion/fixtures');
const eml = (name: string) => readFileSync(join(FIXTURES, name), 'latin1');
const FIRST_ID = '20250314103107.4Z7Qm93kLdz2xP@monitor01.example.com';

describe('email ingestion: POST /v1/alert_sources/{id}/emails', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  const newSource = (attributes: Record<string, unknown>) => newAlertSource(api, org.token, attributes);
  const emailSource = (sourceable: Record<string, unknown> = {}) => newSource({ source_type: 'email', sourceable_attributes: sourceable });
  const send = (source: InboundSource, raw: string, contentType = 'message/rfc822') => postInbound(api, `${source.emails}?secret=${source.secret}`, raw, { 'content-type': contentType });
  const alertsOf = (query: string) => listAlerts(api, org.token, query);

  test('a raw RFC 822 message (recorded Nagios mail) opens one alert of the source; its receipt is in meta', async () => {
    const source = await emailSource();
    const res = await send(source, eml('email-plain.eml'));
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const [alert] = res.body.data;
    assert.equal(alert.attributes.summary, '** PROBLEM Service Alert: db-primary-1/PostgreSQL replication lag is CRITICAL **');
    assert.match(alert.attributes.description, /Notification Type: PROBLEM/);
    assert.equal(alert.attributes.source, 'email');
    assert.equal(alert.attributes.alert_source_id, source.id);
    assert.equal(alert.attributes.deduplication_key, FIRST_ID);
    assert.equal(alert.attributes.status, 'open', 'no notification target: not paging');
    assert.equal(res.body.meta.receipts.length, 1);
    assert.deepEqual({ ...res.body.meta.receipts[0], id: undefined }, { id: undefined, state: 'done', resource_type: 'Alert', resource_id: alert.id });
  });

  test('multipart and quoted-printable mails, also sent as text/plain, map like the unit fixtures', async () => {
    const source = await emailSource();
    const multipart = await send(source, eml('email-multipart.eml'));
    assert.equal(multipart.status, 202, JSON.stringify(multipart.body));
    assert.equal(multipart.body.data[0].attributes.summary, '[DOWN] checkout.example.com is unreachable');
    assert.match(multipart.body.data[0].attributes.description, /^checkout\.example\.com is DOWN since 12:14:51 UTC\./);
    const qp = await send(source, eml('email-quoted-printable.eml'), 'text/plain; charset=us-ascii');
    assert.equal(qp.status, 202, JSON.stringify(qp.body));
    assert.equal(qp.body.data[0].attributes.summary, 'Problem: Disk space low on fileserver-münchen');
  });

  test('the parsed JSON form (application/json) is accepted too; a signed body authenticates like ?secret=', async () => {
    const source = await emailSource();
    const raw = JSON.stringify({ from: 'cron@example.test', subject: 'json-mail-marker backup failed', text: 'exit 1', message_id: '<json-1@example.test>' });
    const res = await api.request('POST', source.emails, { rawBody: raw, headers: { 'content-type': 'application/json', 'x-taproot-signature': signBody(raw, source.secret) } });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.data[0].attributes.summary, 'json-mail-marker backup failed');
    assert.equal(res.body.data[0].attributes.deduplication_key, 'json-1@example.test');
    const rawMail = eml('email-plain.eml');
    const signed = await api.request('POST', source.emails, { rawBody: rawMail, headers: { 'content-type': 'message/rfc822', 'x-taproot-signature': signBody(rawMail, source.secret) } });
    assert.equal(signed.status, 202, JSON.stringify(signed.body));
  });

  test('accept_threaded_emails true: the threaded reply folds into the thread\'s alert (receipt failed/deduplicated)', async () => {
    const source = await emailSource({ accept_threaded_emails: true });
    const first = await send(source, eml('email-plain.eml'));
    const reply = await send(source, eml('email-threaded-reply.eml'));
    assert.equal(reply.status, 202, JSON.stringify(reply.body));
    assert.equal(reply.body.data[0].id, first.body.data[0].id);
    assert.match(reply.body.data[0].attributes.description, /Notification Type: RECOVERY/, 'the reply refreshes the alert');
    assert.deepEqual({ ...reply.body.meta.receipts[0], id: undefined }, { id: undefined, state: 'failed', reason: 'deduplicated', resource_type: 'Alert', resource_id: first.body.data[0].id });
    assert.equal((await alertsOf(`filter[alert_source_id]=${source.id}`)).length, 1);
  });

  test('accept_threaded_emails false: the reply opens nothing and changes nothing (202, receipt failed/suppressed)', async () => {
    const source = await emailSource({ accept_threaded_emails: false });
    const first = await send(source, eml('email-plain.eml'));
    assert.equal(first.status, 202);
    const reply = await send(source, eml('email-threaded-reply.eml'));
    assert.equal(reply.status, 202, JSON.stringify(reply.body));
    assert.deepEqual(reply.body.data, []);
    assert.deepEqual({ ...reply.body.meta.receipts[0], id: undefined }, { id: undefined, state: 'failed', reason: 'suppressed' });
    const stored = await alertsOf(`filter[alert_source_id]=${source.id}`);
    assert.deepEqual(stored.map((a) => a.id), [first.body.data[0].id]);
    assert.match(String(stored[0].attributes.description), /Notification Type: PROBLEM/, 'the thread\'s alert is untouched');
  });

  test("the source's notification target becomes the alert's (it pages: triggered)", async () => {
    const team = await api.request('POST', '/v1/teams', { token: org.token, body: { data: { type: 'groups', attributes: { name: `On call ${Math.random()}` } } } });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    const source = await emailSource({ notification_target_type: 'Group', notification_target_id: team.body.data.id });
    const res = await send(source, eml('email-plain.eml'));
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.data[0].attributes.notification_target_type, 'Group');
    assert.equal(res.body.data[0].attributes.notification_target_id, team.body.data.id);
    assert.equal(res.body.data[0].attributes.status, 'triggered');
  });

  test('credentials, disabled sources, other source types and non-emails are refused and store nothing', async () => {
    const source = await emailSource();
    const raw = eml('email-plain.eml').replace('replication lag is CRITICAL', 'refused-mail-marker');
    assert.equal((await api.request('POST', source.emails, { rawBody: raw, headers: { 'content-type': 'message/rfc822' } })).status, 401, 'no secret');
    assert.equal((await api.request('POST', `${source.emails}?secret=nope`, { rawBody: raw, headers: { 'content-type': 'message/rfc822' } })).status, 401);
    const disabled = await newSource({ source_type: 'email', enabled: false });
    assert.equal((await send(disabled, raw)).status, 409);
    const webhook = await newSource({ source_type: 'alertmanager' });
    const wrongType = await send(webhook, raw);
    assert.equal(wrongType.status, 422, JSON.stringify(wrongType.body));
    assert.equal(wrongType.body.errors[0].source.pointer, '/source_type');
    const notMail = await send(source, 'just some text\n\nwith a body', 'text/plain');
    assert.equal(notMail.status, 422);
    assert.equal(notMail.body.errors[0].source.pointer, '/body');
    const jsonString = await send(source, JSON.stringify(raw), 'application/json');
    assert.equal(jsonString.status, 422, 'a JSON string is not a raw message');
    assert.equal(jsonString.body.errors[0].source.pointer, '/body');
    assert.equal((await send(source, '', 'message/rfc822')).status, 422, 'no body');
    const html = await send(source, raw, 'text/html');
    assert.equal(html.status, 415);
    assert.deepEqual(await alertsOf('filter[search]=refused-mail-marker'), []);
  });

  test('the webhook route keeps refusing email sources, and refuses raw mail', async () => {
    const source = await emailSource();
    const json = JSON.stringify({ subject: 'webhook-mail-marker', text: 'x' });
    const viaWebhook = await api.request('POST', `/v1/alert_sources/${source.id}/alerts?secret=${source.secret}`, { rawBody: json, headers: { 'content-type': 'application/json' } });
    assert.equal(viaWebhook.status, 422, JSON.stringify(viaWebhook.body));
    assert.match(viaWebhook.body.errors[0].detail, /\/emails/);
    const rawToWebhook = await api.request('POST', `/v1/alert_sources/${source.id}/alerts?secret=${source.secret}`, { rawBody: eml('email-plain.eml'), headers: { 'content-type': 'message/rfc822' } });
    assert.equal(rawToWebhook.status, 415);
    assert.deepEqual(await alertsOf('filter[search]=webhook-mail-marker'), []);
  });
});
