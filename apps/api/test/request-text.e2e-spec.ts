import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';

/**
 * Input PostgreSQL cannot store, or would store altered, is refused with a 400 naming where it is
 * (issue 13): NUL characters, unpaired surrogates and invalid UTF-8 in bodies, paths and query
 * parameters; bodies nested without end; integers beyond their columns. None of it writes a row.
 */
describe('text and numbers the database cannot store', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api.close());

  const post = (path: string, body: unknown) => api.request('POST', path, { token: org.token, body });
  const postRaw = (path: string, rawBody: string | Uint8Array) => api.request('POST', path, { token: org.token, rawBody });
  const get = (path: string) => api.request('GET', path, { token: org.token });
  const services = async () => (await get('/v1/services?page[size]=100')).body.data.map((d: { attributes: { name: string } }) => d.attributes.name) as string[];

  /** `source`: the error's expected `source` (`{}`: none), or null not to check it. */
  function refused(res: TestResponse, source: { pointer?: string; parameter?: string } | null, detail: RegExp): void {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    const [error] = res.body.errors;
    assert.equal(error.status, '400');
    assert.equal(error.code, 'INVALID_CHARACTERS');
    assert.equal(error.title, 'Invalid characters');
    assert.match(error.detail, detail);
    if (source) assert.deepEqual(error.source, Object.keys(source).length ? source : undefined);
  }

  test('a NUL character anywhere in a body is a 400 naming the member, for every kind of write', async () => {
    refused(await post('/v1/services', { data: { type: 'services', attributes: { name: 'a\u0000b' } } }), { pointer: '/data/attributes/name' }, /data\/attributes\/name contains a NUL character/);
    refused(
      await post('/v1/incidents', { data: { type: 'incidents', attributes: { title: 'Down', summary: 'x\u0000' } } }),
      { pointer: '/data/attributes/summary' },
      /NUL/,
    );
    refused(await post('/v1/services/bulk_delete', { keep_external_ids: ['ok', 'bad\u0000'] }), { pointer: '/keep_external_ids/1' }, /keep_external_ids\/1 contains a NUL/);
    refused(await post('/v1/services', { data: { type: 'services', attributes: { name: 'x', 'bad\u0000key': 1 } } }), { pointer: '/data/attributes' }, /member name that contains a NUL/);
    assert.deepEqual(await services(), [], 'nothing was written');
  });

  test('an unpaired surrogate is a 400, not a silent U+FFFD', async () => {
    refused(await postRaw('/v1/services', '{"data":{"type":"services","attributes":{"name":"a\\ud800b"}}}'), { pointer: '/data/attributes/name' }, /unpaired UTF-16 surrogate/);
    refused(await postRaw('/v1/services', '{"data":{"type":"services","attributes":{"name":"\\udc00"}}}'), { pointer: '/data/attributes/name' }, /unpaired/);
    const paired = await post('/v1/services', { data: { type: 'services', attributes: { name: 'Rocket \ud83d\ude80' } } });
    assert.equal(paired.status, 201, 'a surrogate pair (an emoji) is fine');
    assert.equal(paired.body.data.attributes.name, 'Rocket 🚀');
  });

  test('invalid UTF-8 bytes are a 400 naming the member they are in', async () => {
    const bytes = (text: string, at: string, invalid: number[]) => {
      const [head, tail] = text.split(at).map((part) => Buffer.from(part, 'utf8'));
      return Buffer.concat([head, Buffer.from(invalid), tail]);
    };
    refused(await postRaw('/v1/services', bytes('{"data":{"type":"services","attributes":{"name":"ab@"}}}', '@', [0xc3, 0x28])), { pointer: '/data/attributes/name' }, /data\/attributes\/name is not valid UTF-8/);
    refused(await postRaw('/v1/services', bytes('{"data":{"type":"services","attributes":{"name":"a@"}}}', '@', [0xed, 0xa0, 0x80])), { pointer: '/data/attributes/name' }, /not valid UTF-8/);
    assert.equal((await services()).filter((n) => n.includes('\uFFFD')).length, 0);
  });

  test('a NUL or invalid UTF-8 in a path id or a query parameter is a 400, not a 500', async () => {
    refused(await get('/v1/incidents/a%00b'), {}, /request path contains a NUL/);
    refused(await get('/v1/services/%ED%A0%80'), {}, /request path is not valid percent-encoded UTF-8/);
    refused(await get('/v1/services?filter[name]=a%00'), { parameter: 'filter[name]' }, /Query parameter filter\[name\] contains a NUL/);
    refused(await get('/v1/services?filter%5Bname%5D=%FF'), { parameter: 'filter[name]' }, /not valid percent-encoded UTF-8/);
    assert.equal((await get('/v1/services?filter[name]=caf%C3%A9')).status, 200, 'valid escapes pass');
  });

  test('a body nested without end is a 400 naming where it goes too deep', async () => {
    const deep = '{"a":'.repeat(100) + '1' + '}'.repeat(100);
    const nested = await postRaw('/v1/services', `{"data":{"type":"services","attributes":{"name":"x","meta":${deep}}}}`);
    refused(nested, null, /^data\/attributes\/meta(\/a)+ is nested deeper than 64 levels$/);
    assert.match(nested.body.errors[0].source.pointer, /^\/data\/attributes\/meta\/a/);
    const absurd = '['.repeat(200_000) + ']'.repeat(200_000);
    const res = await postRaw('/v1/services', absurd);
    assert.ok(res.status === 400 || res.status === 413, `got ${res.status}`);
  });

  test('a body over the limit is a 413 errors document', async () => {
    const res = await post('/v1/services', { data: { type: 'services', attributes: { name: 'x'.repeat(1_100_000) } } });
    assert.equal(res.status, 413);
    assert.equal(res.body.errors[0].status, '413');
    assert.equal(res.body.errors[0].title, 'Payload too large');
  });

  test('integers beyond their columns are a 422 naming the attribute; a stored maximum position does not break later creates', async () => {
    const big = await post('/v1/services', { data: { type: 'services', attributes: { name: 'Too far', position: 2147483648 } } });
    assert.equal(big.status, 422);
    assert.equal(big.body.errors[0].source.pointer, '/data/attributes/position');
    const huge = await postRaw('/v1/services', '{"data":{"type":"services","attributes":{"name":"Huge","position":1e400}}}');
    assert.ok(huge.status === 400 || huge.status === 422, `got ${huge.status}`);

    const last = await post('/v1/severities', { data: { type: 'severities', attributes: { name: 'At the end', severity: 'low', position: 2147483647 } } });
    assert.equal(last.status, 201);
    const next = await post('/v1/severities', { data: { type: 'severities', attributes: { name: 'After the end', severity: 'low' } } });
    assert.equal(next.status, 201, JSON.stringify(next.body));
    assert.equal(next.body.data.attributes.position, 2147483647);
  });

  test('date-times PostgreSQL cannot take are normalised to their UTC instant, or a 422 naming the attribute', async () => {
    const far = await post('/v1/incidents', { data: { type: 'incidents', attributes: { title: 'Offset', started_at: '2004-08-20T00:39:54+16:00' } } });
    assert.equal(far.status, 201, JSON.stringify(far.body));
    assert.equal(far.body.data.attributes.started_at, '2004-08-19T08:39:54.000Z');
    const alert = await post('/v1/alerts', { data: { type: 'alerts', attributes: { summary: 'Offset', started_at: '2004-08-20T00:39:54-23:59' } } });
    assert.equal(alert.status, 201, JSON.stringify(alert.body));
    for (const started_at of ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59-15:00']) {
      const res = await post('/v1/incidents', { data: { type: 'incidents', attributes: { title: 'Out of range', started_at } } });
      assert.equal(res.status, 422, `${started_at}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.errors[0].source.pointer, '/data/attributes/started_at');
      assert.match(res.body.errors[0].detail, /between the years 0001 and 9999/);
    }
  });

  test('a uuid-valued filter refuses a value that is not one: 400 naming the parameter', async () => {
    for (const parameter of ['filter[parent_incident_id]', 'filter[duplicate_incident_id][eq]', 'filter[parent_incident_id][in]']) {
      const res = await get(`/v1/incidents?${parameter}=x`);
      assert.equal(res.status, 400, `${parameter}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.errors[0].source.parameter, parameter);
    }
  });

  test('a path parameter over the length limit is a JSON:API 404: no record is named that way', async () => {
    for (const path of [`/v1/services/${'a'.repeat(200)}`, `/v1/retrospective_processes/${'a'.repeat(200)}/retrospective_steps`]) {
      const res = await get(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.errors[0].status, '404');
      assert.match(res.body.errors[0].detail, /over 100 characters/);
    }
  });
});
