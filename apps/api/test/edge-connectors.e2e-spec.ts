import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { created, doc, ids, outboxTypes, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

/** Edge connectors and their actions (docs/edge-connectors.md). */
describe('edge connectors over HTTP', () => {
  const w = useApiWorld();
  const { send } = w;

  const newConnector = async (attributes: Attributes = {}, token = w.org.token): Promise<Json> =>
    created(await send('POST', '/v1/edge_connectors', doc('edge_connectors', { name: unique('Datacenter agent'), ...attributes }), token));
  const actions = (connector: string) => `/v1/edge_connectors/${connector}/actions`;

  test('a connector: created with its defaults, filtered by records of the organization, listed with the reference parameters, changed with PATCH, deleted with its actions', async () => {
    const service = created(await send('POST', '/v1/services', doc('services', { name: unique('Checkout') }))).id;
    const connector = await newConnector({ name: 'Rack 7', subscriptions: ['incident.created', 'alert.created'], filters: { service_ids: [service.toUpperCase()] } });
    assert.deepEqual([connector.attributes.status, connector.attributes.online, connector.attributes.filters], ['active', false, { service_ids: [service] }]);
    const paused = await newConnector({ status: 'paused' });
    assert.deepEqual(ids(await send('GET', '/v1/edge_connectors?status=paused&per_page=50&page=1')), [paused.id]);
    assert.deepEqual(ids(await send('GET', '/v1/edge_connectors?name=Rack%207')), [connector.id]);
    assert.deepEqual(ids(await send('GET', '/v1/edge_connectors?filter[status]=paused')), [paused.id]);
    const onePerPage = await send('GET', '/v1/edge_connectors?per_page=1');
    assert.deepEqual([onePerPage.body.data.length, onePerPage.body.meta.total_count], [1, 2]);
    const changed = await send('PATCH', `/v1/edge_connectors/${connector.id}`, doc('edge_connectors', { status: 'paused', online: true }));
    assert.deepEqual([changed.status, changed.body.data.attributes.status, changed.body.data.attributes.online], [200, 'paused', false]);
    const action = created(await send('POST', actions(connector.id), doc('edge_connector-actions', { name: 'Restart', action_type: 'script' })));
    assert.equal((await send('DELETE', `/v1/edge_connectors/${connector.id}`)).status, 200);
    assert.equal((await send('GET', `${actions(connector.id)}/${action.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, action.id), ['edge_connector_action.created', 'edge_connector_action.deleted']);
  });

  test('bad connectors are a 422 naming the attribute, and nothing is written', async () => {
    const theirs = created(await send('POST', '/v1/services', doc('services', { name: unique('Theirs') }), w.other.token)).id;
    const count = (await send('GET', '/v1/edge_connectors?per_page=100')).body.meta.total_count;
    for (const [attributes, pointer] of [
      [{ filters: { service_ids: [theirs] } }, '/data/attributes/filters/service_ids/0'],
      [{ filters: { group_ids: ['not-a-team'] } }, '/data/attributes/filters/group_ids/0'],
      [{ subscriptions: ['incident.exploded'] }, '/data/attributes/subscriptions/0'],
      [{ status: 'sleeping' }, '/data/attributes/status'],
    ] as [Attributes, string][]) {
      const res = await send('POST', '/v1/edge_connectors', doc('edge_connectors', { name: 'Bad', ...attributes }));
      assert.deepEqual([res.status, pointers(res)], [422, [pointer]], JSON.stringify(attributes));
    }
    assert.equal((await send('GET', '/v1/edge_connectors?per_page=100')).body.meta.total_count, count);
  });

  test("actions: under their connector for every route, written as JSON:API or as the reference's {action: {..., metadata}}", async () => {
    const connector = await newConnector();
    const asJsonApi = created(
      await send('POST', actions(connector.id), doc('edge_connector-actions', { name: 'Flush cache', action_type: 'http', icon: 'server', timeout: 30, parameters: [{ name: 'host', type: 'string', required: true }] })),
    );
    assert.deepEqual([asJsonApi.type, asJsonApi.attributes.slug, asJsonApi.attributes.edge_connector_id, asJsonApi.attributes.last_executed_at], ['edge_connector-actions', 'flush-cache', connector.id, null]);
    // The underscored spelling is taken too.
    created(await send('POST', actions(connector.id), doc('edge_connector_actions', { name: 'Underscored', action_type: 'http' })));
    const asReference = created(
      await send('POST', actions(connector.id), { action: { name: 'Restart', action_type: 'script', metadata: { description: 'restarts the agent', timeout: 60, parameters: [{ name: 'force', type: 'boolean' }] } } }),
    );
    assert.deepEqual([asReference.attributes.description, asReference.attributes.timeout, asReference.attributes.parameters], ['restarts the agent', 60, [{ name: 'force', type: 'boolean' }]]);
    assert.equal(asReference.attributes.icon, 'bolt');
    assert.deepEqual(ids(await send('GET', actions(connector.id))).slice(0, 1), [asJsonApi.id]);
    const patched = await send('PATCH', `${actions(connector.id)}/${asReference.id}`, { action: { metadata: { timeout: 120 } } });
    assert.deepEqual([patched.status, patched.body.data.attributes.timeout], [200, 120]);
    assert.equal((await send('GET', `${actions(connector.id)}/${asJsonApi.id}`)).body.data.attributes.name, 'Flush cache');
    for (const [body, pointer] of [
      [{ action: { name: 'No type' } }, '/data/attributes/action_type'],
      [doc('edge_connector-actions', { name: 'Bad icon', action_type: 'script', icon: 'rocket' }), '/data/attributes/icon'],
      [{ action: { name: 'Slow', action_type: 'http', metadata: { timeout: 0 } } }, '/data/attributes/metadata/timeout'],
    ] as [Json, string][]) {
      const res = await send('POST', actions(connector.id), body);
      assert.deepEqual([res.status, pointers(res)], [422, [pointer]], JSON.stringify(body));
    }
    assert.equal((await send('DELETE', `${actions(connector.id)}/${asJsonApi.id}`)).status, 200);
    assert.ok(!ids(await send('GET', actions(connector.id))).includes(asJsonApi.id));
  });

  test('edge connectors need webhooks permissions; another organization gets 404 and never sees them', async () => {
    const connector = await newConnector();
    const action = created(await send('POST', actions(connector.id), doc('edge_connector-actions', { name: unique('Run'), action_type: 'script' })));
    const role = created(await send('POST', '/v1/roles', doc('roles', { name: unique('Incidents only'), incidents_permissions: ['read'] })));
    const limited = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: role.id });
    assert.equal((await send('GET', '/v1/edge_connectors', undefined, limited)).status, 403);
    assert.equal((await send('POST', actions(connector.id), doc('edge_connector-actions', { name: 'x', action_type: 'script' }), limited)).status, 403);
    for (const [method, path] of [
      ['GET', `/v1/edge_connectors/${connector.id}`],
      ['PATCH', `/v1/edge_connectors/${connector.id}`],
      ['DELETE', `/v1/edge_connectors/${connector.id}`],
      ['GET', actions(connector.id)],
      ['GET', `${actions(connector.id)}/${action.id}`],
      ['DELETE', `${actions(connector.id)}/${action.id}`],
    ]) {
      assert.equal((await send(method, path, method === 'PATCH' ? doc('edge_connectors', { name: 'Taken' }) : undefined, w.other.token)).status, 404, `${method} ${path}`);
    }
    assert.equal((await send('POST', actions(connector.id), doc('edge_connector-actions', { name: 'Intruder', action_type: 'script' }), w.other.token)).status, 404);
    assert.ok(!ids(await send('GET', '/v1/edge_connectors?per_page=100', undefined, w.other.token)).includes(connector.id));
  });
});
