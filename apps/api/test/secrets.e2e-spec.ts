import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { eventually } from '../src/testing';
import { useApiWorld } from './support/api-world';
import { type Attributes, created, errorCodes, outboxEvents, pointers, unique } from './support/json-api';
import { newWebhookEndpoint } from './support/webhook-deliveries';

const doc = (attributes: Attributes) => ({ data: { type: 'secrets', attributes } });
/** A secret name of its own for each test (names are identifiers, unique in the organization). */
const named = (prefix: string) => `${prefix}_${unique('').trim().replace(/-/g, '_')}`;

const w = useApiWorld();
const { send } = w;

const create = async (attributes: Attributes, token = w.org.token) => created(await send('POST', '/v1/secrets', doc(attributes), token)) as { id: string; attributes: Attributes };
const count = async () => (await send('GET', '/v1/secrets?page[size]=100')).body.meta.total_count as number;
const stored = async (id: string) => ((await w.api.runtime.dataSource.query('SELECT secret FROM secrets WHERE id = $1', [id])) as { secret: string }[])[0]?.secret;
const endpoint = (custom_headers: unknown[]) => newWebhookEndpoint(w, { custom_headers });

/** `/v1/secrets` (docs/webhooks.md, "Secrets"). */
describe('secrets', () => {
  test('create, read, list, update and delete: the value is write-only, kept in the write table alone', async () => {
    const name = named('API_TOKEN');
    const res = await send('POST', '/v1/secrets', doc({ name, secret: 'tok-1' }));
    const { id, attributes: a } = created(res) as { id: string; attributes: Attributes };
    assert.deepEqual(
      { name: a.name, kind: a.kind, secret: a.secret, mount: a.hashicorp_vault_mount, path: a.hashicorp_vault_path, version: a.hashicorp_vault_version },
      { name, kind: 'built_in', secret: '********', mount: 'secret', path: null, version: 0 },
    );
    assert.equal(await stored(id), 'tok-1');
    assert.deepEqual((await send('GET', `/v1/secrets/${id}`)).body.data, res.body.data);
    assert.deepEqual((await send('GET', `/v1/secrets?filter[name]=${name}`)).body.data, [res.body.data]);

    const rotated = await send('PUT', `/v1/secrets/${id}`, doc({ name: `${name}_2`, secret: 'tok-2', hashicorp_vault_path: 'ignored' }));
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    assert.deepEqual([rotated.body.data.attributes.name, rotated.body.data.attributes.secret, rotated.body.data.attributes.hashicorp_vault_path], [`${name}_2`, '********', null]);
    assert.equal(await stored(id), 'tok-2');
    const renamedOnly = await send('PUT', `/v1/secrets/${id}`, doc({ name }));
    assert.equal(renamedOnly.status, 200);
    assert.equal(await stored(id), 'tok-2', 'a value not sent is kept');

    const deleted = await send('DELETE', `/v1/secrets/${id}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.data.attributes.secret, '********');
    assert.equal((await send('GET', `/v1/secrets/${id}`)).status, 404);
  });

  test('the value never reaches an event, the read model or the audit log', async () => {
    const value = `never-shown-${Date.now()}`;
    const { id } = await create({ name: named('HIDDEN'), secret: value });
    await send('PUT', `/v1/secrets/${id}`, doc({ secret: `${value}-2` }));
    const events = await outboxEvents(w.api, id);
    assert.deepEqual(events.map((e) => e.type), ['secret.created', 'secret.updated']);
    assert.ok(!JSON.stringify(events).includes(value), JSON.stringify(events));
    const [read] = await w.api.runtime.dataSource.query('SELECT secret FROM secrets_read WHERE id = $1', [id]);
    assert.equal(read.secret, '********');
    const audits = await eventually(
      () => send('GET', '/v1/audits?page[size]=100'),
      (res) => res.body.data.filter((d: { attributes: Attributes }) => d.attributes.item_id === id).length === 2,
    );
    assert.ok(!JSON.stringify(audits.body).includes(value));
  });

  test('names are identifiers unique in the organization, values fit in a header, Vault is not available: 422 naming each, nothing written', async () => {
    const taken = named('TAKEN');
    await create({ name: taken, secret: 'x' });
    const before = await count();
    const refused = async (attributes: Attributes, expected: string[]) => {
      const res = await send('POST', '/v1/secrets', doc({ name: named('OK'), secret: 'v', ...attributes }));
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.deepEqual(pointers(res), expected, JSON.stringify(res.body));
      return res;
    };
    for (const name of ['with-dash', '1starts_with_digit', 'has space', '', 'x'.repeat(256)]) await refused({ name }, ['/data/attributes/name']);
    assert.deepEqual(errorCodes(await refused({ name: taken }, ['/data/attributes/name'])), ['422/NAME_TAKEN/Invalid attribute']);
    await refused({ secret: 'two\nlines' }, ['/data/attributes/secret']);
    await refused({ secret: '' }, ['/data/attributes/secret']);
    const vault = await refused({ kind: 'hashicorp_vault', hashicorp_vault_path: 'kv/app' }, ['/data/attributes/kind']);
    assert.match(vault.body.errors[0].detail, /no HashiCorp Vault connection/);
    assert.deepEqual(pointers(await send('POST', '/v1/secrets', doc({}))).sort(), ['/data/attributes/name', '/data/attributes/secret']);
    assert.equal(await count(), before, 'nothing written');

    // Another organization may use the same name.
    assert.equal((await create({ name: taken, secret: 'theirs' }, w.other.token)).attributes.name, taken);
    const { id } = await create({ name: named('MINE'), secret: 'x' });
    const rename = await send('PUT', `/v1/secrets/${id}`, doc({ name: taken }));
    assert.deepEqual(errorCodes(rename), ['422/NAME_TAKEN/Invalid attribute']);
  });

  test('a secret that custom headers use is neither deleted nor renamed (422 naming the endpoints); unused, it is', async () => {
    const name = named('RECEIVER_TOKEN');
    const { id } = await create({ name, secret: 'tok' });
    const first = await endpoint([{ name: 'Authorization', value: `Bearer {{ secrets.${name} }}` }]);
    const second = await endpoint([{ name: 'X-Plain', value: 'p' }, { name: 'X-Token', value: `{{secrets.${name}}}` }]);
    // A longer name that starts with it is another secret.
    await create({ name: `${name}X`, secret: 'other' });
    const unrelated = await endpoint([{ name: 'X-Other', value: `{{ secrets.${name}X }}` }]);

    const deleting = await send('DELETE', `/v1/secrets/${id}`);
    assert.deepEqual(errorCodes(deleting), ['422/SECRET_IN_USE/Secret in use']);
    const detail: string = deleting.body.errors[0].detail;
    assert.ok(detail.includes(first.id) && detail.includes(second.id) && !detail.includes(unrelated.id), detail);
    const renaming = await send('PUT', `/v1/secrets/${id}`, doc({ name: `${name}_new` }));
    assert.deepEqual(errorCodes(renaming), ['422/SECRET_IN_USE/Secret in use']);
    assert.deepEqual(pointers(renaming), ['/data/attributes/name']);
    assert.equal((await send('GET', `/v1/secrets/${id}`)).body.data.attributes.name, name, 'unchanged');
    const rotating = await send('PUT', `/v1/secrets/${id}`, doc({ name, secret: 'tok-2' }));
    assert.equal(rotating.status, 200, 'a new value under the same name is fine');

    for (const e of [first, second]) assert.equal((await send('PUT', `/v1/webhooks/endpoints/${e.id}`, { data: { type: 'webhooks_endpoints', attributes: { custom_headers: [] } } })).status, 200);
    assert.equal((await send('DELETE', `/v1/secrets/${id}`)).status, 200);
  });

  test("another organization's secrets answer 404; the secrets permission is checked (the seeded User role does not read them)", async () => {
    const { id } = await create({ name: named('THEIRS'), secret: 'x' }, w.other.token);
    assert.equal((await send('GET', `/v1/secrets/${id}`)).status, 404);
    assert.equal((await send('PUT', `/v1/secrets/${id}`, doc({ secret: 'y' }))).status, 404);
    assert.equal((await send('DELETE', `/v1/secrets/${id}`)).status, 404);
    assert.ok(!(await send('GET', '/v1/secrets?page[size]=100')).body.data.some((d: { id: string }) => d.id === id));

    const user = await w.api.addUser(w.org.organizationId, { roleKind: 'user', onCallRoleKind: 'user' });
    const responder = await w.api.issueApiKey(w.org.organizationId, { kind: 'personal', userId: user });
    assert.deepEqual(errorCodes(await send('GET', '/v1/secrets', undefined, responder)), ['403/PERMISSION_DENIED/Forbidden']);
  });
});
