import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { hasEventContract } from '@taproot/messaging';
import { eventually, type TestResponse } from '../src/testing';
import { useApiWorld } from './support/api-world';
import { type Attributes, created, errorCodes, outboxEvents, pointers, unique } from './support/json-api';
import { newWebhookEndpoint } from './support/webhook-deliveries';

const doc = (attributes: Attributes) => ({ data: { type: 'webhooks_endpoints', attributes } });
const RECEIVER = 'https://receiver.example.test/hooks';

const w = useApiWorld();
const { send } = w;

const create = (attributes: Attributes, token?: string) => newWebhookEndpoint(w, { url: RECEIVER, ...attributes }, token);
const secret = async (name: string, value = 's3cr3t') => created(await send('POST', '/v1/secrets', { data: { type: 'secrets', attributes: { name, secret: value } } })).id as string;
const count = async () => (await send('GET', '/v1/webhooks/endpoints?page[size]=100')).body.meta.total_count as number;

/** `/v1/webhooks/endpoints` (docs/webhooks.md). */
describe('webhook endpoints', () => {
  test('create with a generated secret, read it back in full (get, list, by slug), update and delete', async () => {
    const name = unique('Security tooling');
    const res = await send('POST', '/v1/webhooks/endpoints', doc({ name, url: RECEIVER, event_types: ['incident.created', 'audit_log.created', 'incident.created'] }));
    const { id, attributes: a } = created(res) as { id: string; attributes: Attributes };
    assert.equal(res.body.data.type, 'webhooks_endpoints');
    assert.match(String(a.secret), /^whsec_[A-Za-z0-9+/]{43}=$/, 'whsec_ and 32 random bytes in base64');
    assert.equal(Buffer.from(String(a.secret).slice('whsec_'.length), 'base64').length, 32);
    assert.deepEqual(a.event_types, ['incident.created', 'audit_log.created'], 'duplicates collapsed');
    assert.deepEqual([a.enabled, a.custom_headers, a.failing_since, a.url], [true, [], null, RECEIVER]);
    assert.equal(a.slug, name.toLowerCase().replace(/[^a-z0-9]+/g, '-'));

    const got = await send('GET', `/v1/webhooks/endpoints/${id}`);
    assert.deepEqual(got.body.data, res.body.data, 'the read model holds the secret as answered');
    assert.deepEqual((await send('GET', `/v1/webhooks/endpoints/${a.slug}`)).body.data.id, id);
    const listed = await send('GET', `/v1/webhooks/endpoints?filter[name]=${encodeURIComponent(name)}`);
    assert.deepEqual(listed.body.data, [res.body.data]);
    assert.deepEqual((await send('GET', `/v1/webhooks/endpoints?filter[slug]=${a.slug}`)).body.data.map((d: { id: string }) => d.id), [id]);

    const given = await create({ secret: 'whsec_given', enabled: false });
    assert.deepEqual([given.attributes.secret, given.attributes.enabled, given.attributes.event_types], ['whsec_given', false, []], 'a given secret is kept; no event types: every type');

    // The URL changes without the secret: a receiver moved keeps verifying.
    const moved = await send('PUT', `/v1/webhooks/endpoints/${id}`, doc({ name: `${name} renamed`, url: 'http://other.example.test/in', event_types: [], enabled: false, secret: 'ignored' }));
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const m = moved.body.data.attributes;
    assert.deepEqual([m.url, m.event_types, m.enabled, m.secret], ['http://other.example.test/in', [], false, a.secret], 'secret is create-only');
    assert.deepEqual((await send('GET', `/v1/webhooks/endpoints/${id}`)).body.data, moved.body.data);

    const deleted = await send('DELETE', `/v1/webhooks/endpoints/${id}`);
    assert.equal(deleted.status, 200);
    assert.deepEqual(deleted.body.data, moved.body.data, 'the deleted record');
    assert.equal((await send('GET', `/v1/webhooks/endpoints/${id}`)).status, 404);
  });

  test('the secret never reaches an event or the audit log', async () => {
    const { id, attributes } = await create({});
    await send('PUT', `/v1/webhooks/endpoints/${id}`, doc({ enabled: false }));
    const events = await outboxEvents(w.api, id);
    assert.deepEqual(events.map((e) => e.type), ['webhooks_endpoint.created', 'webhooks_endpoint.updated']);
    for (const event of events) {
      assert.equal(event.payload.secret, '********');
      assert.ok(!JSON.stringify(event).includes(String(attributes.secret)));
    }
    const audits = await eventually(
      () => send('GET', '/v1/audits?page[size]=100'),
      (res) => res.body.data.filter((d: { attributes: Attributes }) => d.attributes.item_id === id).length === 2,
    );
    const rows = audits.body.data.filter((d: { attributes: Attributes }) => d.attributes.item_id === id);
    assert.ok(!JSON.stringify(rows).includes(String(attributes.secret)), JSON.stringify(rows));
    assert.equal((await send('GET', `/v1/webhooks/endpoints/${id}`)).body.data.attributes.secret, attributes.secret, 'still answered in full');
  });

  test("the webhooks context's events have payload contracts, the dispatcher's webhooks_endpoint.disabled included", () => {
    const types = ['webhooks_endpoint.created', 'webhooks_endpoint.updated', 'webhooks_endpoint.deleted', 'webhooks_endpoint.disabled', 'secret.created', 'secret.updated', 'secret.deleted', 'webhooks_delivery.redelivered'];
    assert.deepEqual(types.filter((type) => !hasEventContract(type)), []);
  });

  test('url, event types and the name are checked (422 naming each), nothing written', async () => {
    const before = await count();
    const refused = async (attributes: Attributes, expected: string[]) => {
      const res = await send('POST', '/v1/webhooks/endpoints', doc({ name: 'Refused', url: RECEIVER, ...attributes }));
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.deepEqual(pointers(res), expected, JSON.stringify(res.body));
      return res;
    };
    for (const url of ['not a url', '/relative/path', 'ftp://example.test/x', 'javascript:alert(1)', 'https://user:pass@example.test/x', '']) await refused({ url }, ['/data/attributes/url']);
    const unknown = await refused({ event_types: ['incident.created', 'shift.started'] }, ['/data/attributes/event_types/1']);
    assert.match(unknown.body.errors[0].detail, /must be one of/);
    await refused({ name: '' }, ['/data/attributes/name']);
    await refused({ secret: '' }, ['/data/attributes/secret']);
    await refused({ enabled: 'yes' }, ['/data/attributes/enabled']);
    const missing = await send('POST', '/v1/webhooks/endpoints', doc({}));
    assert.deepEqual(pointers(missing).sort(), ['/data/attributes/name', '/data/attributes/url']);
    assert.equal(await count(), before, 'nothing written');

    const { id } = await create({});
    const bad = await send('PUT', `/v1/webhooks/endpoints/${id}`, doc({ url: 'gopher://x' }));
    assert.deepEqual(pointers(bad), ['/data/attributes/url']);
    assert.equal((await send('GET', `/v1/webhooks/endpoints/${id}`)).body.data.attributes.url, RECEIVER, 'unchanged');
  });

  test('every subscribable type the OpenAPI document lists is accepted', async () => {
    const schemas = (await send('GET', '/v1/openapi.json')).body.components.schemas;
    const types = schemas.webhooks_endpoint.properties.event_types.items.enum as string[];
    assert.ok(types.includes('audit_log.created') && types.includes('alert.updated'), types.join(', '));
    const { attributes } = await create({ event_types: types });
    assert.deepEqual(attributes.event_types, types);
  });

  test('custom headers: at most 10, HTTP names not reserved, values on one line, secret templates naming secrets of the organization', async () => {
    const token = `TOKEN_${Date.now()}`;
    await secret(token);
    const headers = [
      { name: 'Authorization', value: `Bearer {{ secrets.${token} }}` },
      { name: 'X-Team', value: 'payments {{secrets.' + token + '}}' },
    ];
    const { id, attributes } = await create({ custom_headers: headers });
    assert.deepEqual(attributes.custom_headers, headers, 'stored as written: templates, never the values');

    const before = await count();
    const refused = async (custom_headers: unknown, expected: string[]) => {
      const res = await send('POST', '/v1/webhooks/endpoints', doc({ name: 'Refused', url: RECEIVER, custom_headers }));
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.deepEqual(pointers(res), expected, JSON.stringify(res.body));
      return res;
    };
    await refused(Array.from({ length: 11 }, (_, i) => ({ name: `X-H${i}`, value: 'v' })), ['/data/attributes/custom_headers']);
    for (const name of ['Content-Type', 'host', 'X-ROOTLY-SIGNATURE', 'webhook-id', 'Webhook-Timestamp', 'webhook-signature', 'User-Agent', 'Content-Length', 'Connection', 'Transfer-Encoding']) {
      const res = await refused([{ name: 'X-Fine', value: 'v' }, { name, value: 'v' }], ['/data/attributes/custom_headers/1/name']);
      assert.deepEqual(errorCodes(res), ['422/RESERVED_HEADER/Invalid attribute']);
    }
    await refused([{ name: 'Bad Name', value: 'v' }], ['/data/attributes/custom_headers/0/name']);
    await refused([{ name: 'X-Split', value: 'a\r\nX-Injected: 1' }], ['/data/attributes/custom_headers/0/value']);
    await refused([{ name: 'X-Long', value: 'x'.repeat(8193) }], ['/data/attributes/custom_headers/0/value']);
    await refused([{ name: 'X-'.padEnd(257, 'a'), value: 'v' }], ['/data/attributes/custom_headers/0/name']);
    await refused([{ name: 'X-No-Value' }], ['/data/attributes/custom_headers/0/value']);
    const unknownSecret = await refused([{ name: 'X-Ok', value: 'v' }, { name: 'Authorization', value: 'Bearer {{ secrets.NOPE }}' }], ['/data/attributes/custom_headers/1/value']);
    assert.deepEqual(errorCodes(unknownSecret), ['422/UNKNOWN_SECRET/Invalid attribute']);
    assert.match(unknownSecret.body.errors[0].detail, /NOPE is not a secret of this organization/);
    assert.equal(await count(), before, 'nothing written');

    // Another organization's secret of the same name is not this organization's.
    const theirs = `THEIRS_${Date.now()}`;
    created(await send('POST', '/v1/secrets', { data: { type: 'secrets', attributes: { name: theirs, secret: 'x' } } }, w.other.token));
    await refused([{ name: 'Authorization', value: `{{ secrets.${theirs} }}` }], ['/data/attributes/custom_headers/0/value']);

    const updated = await send('PUT', `/v1/webhooks/endpoints/${id}`, doc({ custom_headers: [{ name: 'Host', value: 'evil' }] }));
    assert.deepEqual(pointers(updated), ['/data/attributes/custom_headers/0/name']);
    assert.deepEqual((await send('GET', `/v1/webhooks/endpoints/${id}`)).body.data.attributes.custom_headers, headers, 'unchanged');
  });

  test('re-enabling an endpoint, or aiming it elsewhere, clears failing_since', async () => {
    const failing = async () => {
      const { id } = await create({});
      const since = '2026-01-01T00:00:00.000Z';
      for (const table of ['webhooks_endpoints', 'webhooks_endpoints_read']) await w.api.runtime.dataSource.query(`UPDATE ${table} SET failing_since = $2, enabled = false WHERE id = $1`, [id, since]);
      return { id, since };
    };
    const put = (id: string, attributes: Attributes) => send('PUT', `/v1/webhooks/endpoints/${id}`, doc(attributes));
    const sinceOf = (res: TestResponse) => res.body.data.attributes.failing_since;

    const a = await failing();
    assert.equal(sinceOf(await put(a.id, { name: 'Still off', enabled: false })), a.since, 'kept while it stays disabled');
    assert.equal(sinceOf(await put(a.id, { enabled: true })), null, 're-enabled');
    assert.equal(sinceOf(await send('GET', `/v1/webhooks/endpoints/${a.id}`)), null);
    const b = await failing();
    assert.equal(sinceOf(await put(b.id, { url: 'https://new.example.test/in' })), null, 'another receiver');
  });

  test("another organization's endpoints answer 404 and are not listed; the webhooks permission is checked", async () => {
    const { id } = await create({}, w.other.token);
    assert.equal((await send('GET', `/v1/webhooks/endpoints/${id}`)).status, 404);
    assert.equal((await send('PUT', `/v1/webhooks/endpoints/${id}`, doc({ name: 'Mine' }))).status, 404);
    assert.equal((await send('DELETE', `/v1/webhooks/endpoints/${id}`)).status, 404);
    assert.ok(!(await send('GET', '/v1/webhooks/endpoints?page[size]=100')).body.data.some((d: { id: string }) => d.id === id));

    const role = created(await send('POST', '/v1/roles', { data: { type: 'roles', attributes: { name: unique('Webhook reader'), webhooks_permissions: ['read'] } } }));
    const reader = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: role.id });
    assert.equal((await send('GET', '/v1/webhooks/endpoints', undefined, reader)).status, 200);
    const denied = await send('POST', '/v1/webhooks/endpoints', doc({ name: 'Nope', url: RECEIVER }), reader);
    assert.deepEqual(errorCodes(denied), ['403/PERMISSION_DENIED/Forbidden']);
  });
});
