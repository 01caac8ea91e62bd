import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { created, pointers, unique } from './support/json-api';

const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

let api: TestApi;
let org: TestOrganization;
let other: TestOrganization;
before(async () => {
  api = await startTestApi();
  org = await api.newOrganization();
  other = await api.newOrganization();
});
after(() => api?.close());

const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
const make = async (type: string, attributes: Record<string, unknown>, token = org.token) => created(await send('POST', `/v1/${type}`, doc(type, attributes), token)).id as string;

/** `/v1/alert_retrigger_rules` (docs/alert-retrigger-rules.md). */
describe('alert re-trigger rules over HTTP', () => {
  test('create, get, update (PUT and PATCH), list and delete; conditions get server ids, positions append', async () => {
    const urgency = await make('alert_urgencies', { name: unique('High'), description: 'h' });
    const res = await send(
      'POST',
      '/v1/alert_retrigger_rules',
      doc('alert_retrigger_rules', { name: 'High again', timeout_minutes: 30, conditions: [{ kind: 'urgency', operator: 'is_one_of', record_ids: [urgency.toUpperCase()] }, { kind: 'payload', property_field_name: '$.host', values: ['db-1'] }] }),
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { id, attributes: a } = res.body.data;
    assert.equal(a.match_mode, 'match-all-rules');
    assert.equal(a.timeout_minutes, 30);
    assert.equal(typeof a.position, 'number');
    assert.match(a.conditions[0].id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(a.conditions[0].record_ids, [urgency]);
    assert.equal(a.conditions[1].operator, 'is_one_of');
    const second = created(await send('POST', '/v1/alert_retrigger_rules', doc('alert_retrigger_rules', { name: 'Any' })));
    assert.ok((second.attributes as { position: number }).position > a.position, 'appended last');

    assert.deepEqual((await send('GET', `/v1/alert_retrigger_rules/${id}`)).body.data, res.body.data);
    const patched = await send('PATCH', `/v1/alert_retrigger_rules/${id}`, doc('alert_retrigger_rules', { match_mode: 'match-any-rule' }));
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.data.attributes.match_mode, 'match-any-rule');
    assert.deepEqual(patched.body.data.attributes.conditions, a.conditions, 'conditions kept when not sent');
    const put = await send('PUT', `/v1/alert_retrigger_rules/${id}`, doc('alert_retrigger_rules', { name: 'Renamed', conditions: [] }));
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(put.body.data.attributes.conditions, []);
    const list = await send('GET', '/v1/alert_retrigger_rules');
    assert.equal(list.status, 200);
    assert.ok(list.body.data.some((r: { id: string }) => r.id === id));
    assert.equal((await send('DELETE', `/v1/alert_retrigger_rules/${id}`)).status, 200);
    assert.equal((await send('GET', `/v1/alert_retrigger_rules/${id}`)).status, 404);
  });

  test("bad conditions answer 422 naming conditions/<i>/<member>, nothing written; another organization's records are refused and its rules are 404", async () => {
    const otherUrgency = await make('alert_urgencies', { name: unique('High'), description: 'h' }, other.token);
    const before = (await send('GET', '/v1/alert_retrigger_rules?page[size]=100')).body.data.length;
    const res = await send(
      'POST',
      '/v1/alert_retrigger_rules',
      doc('alert_retrigger_rules', {
        name: 'Bad',
        conditions: [{ kind: 'nope' }, { kind: 'payload', property_field_name: '$.a' }, { kind: 'urgency', operator: 'is_most', record_ids: ['x'] }],
      }),
    );
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.deepEqual(pointers(res), ['/data/attributes/conditions/0/kind', '/data/attributes/conditions/2/operator', '/data/attributes/conditions/2/record_ids/0']);
    // What the declaration cannot say: a kind's required members, a JSON Path that does not parse.
    const shapes = await send('POST', '/v1/alert_retrigger_rules', doc('alert_retrigger_rules', { name: 'Bad', conditions: [{ kind: 'payload', property_field_name: '$[' }, { kind: 'alert_field', values: ['a'] }, { kind: 'service' }] }));
    assert.equal(shapes.status, 422, JSON.stringify(shapes.body));
    assert.deepEqual(pointers(shapes), ['/data/attributes/conditions/0/property_field_name', '/data/attributes/conditions/1/record_ids', '/data/attributes/conditions/2/record_ids']);
    const foreign = await send('POST', '/v1/alert_retrigger_rules', doc('alert_retrigger_rules', { name: 'Foreign', conditions: [{ kind: 'urgency', record_ids: [otherUrgency] }] }));
    assert.equal(foreign.status, 422, JSON.stringify(foreign.body));
    assert.deepEqual(pointers(foreign), ['/data/attributes/conditions/0/record_ids/0']);
    assert.equal((await send('POST', '/v1/alert_retrigger_rules', doc('alert_retrigger_rules', { name: 'Bad mode', match_mode: 'sometimes' }))).status, 422);
    assert.equal((await send('GET', '/v1/alert_retrigger_rules?page[size]=100')).body.data.length, before, 'nothing written');

    const theirs = await make('alert_retrigger_rules', { name: 'Theirs' }, other.token);
    assert.equal((await send('GET', `/v1/alert_retrigger_rules/${theirs}`)).status, 404);
    assert.equal((await send('PATCH', `/v1/alert_retrigger_rules/${theirs}`, doc('alert_retrigger_rules', { name: 'Mine' }))).status, 404);
    assert.equal((await send('DELETE', `/v1/alert_retrigger_rules/${theirs}`)).status, 404);
  });
});
