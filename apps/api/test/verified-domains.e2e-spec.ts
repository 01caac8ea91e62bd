import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useApiWorld } from './support/api-world';
import { created, errorCodes, ids, outboxTypes, pointers } from './support/json-api';
import { useFakeTxtRecords } from './support/status-pages';

const doc = (domain: unknown) => ({ data: { type: 'verified_domains', attributes: { domain } } });

describe('verified domains: a DNS TXT challenge', () => {
  const w = useApiWorld();
  const { send } = w;
  const published = useFakeTxtRecords(w);
  const fresh = () => `status-${randomUUID().slice(0, 8)}.example.com`;

  test('POST answers the record to publish, pending; verify finds it (verified), loses it (failing) and finds it again', async () => {
    const name = fresh();
    const domain = created(await send('POST', '/v1/verified_domains', doc(`  ${name.toUpperCase()}. `)));
    assert.equal(domain.type, 'verified_domains');
    const { attributes } = domain;
    assert.match(attributes.verification_token, /^[\w-]{32}$/);
    assert.deepEqual(attributes, {
      domain: name,
      verification_status: 'pending',
      verification_token: attributes.verification_token,
      txt_host: `_taproot-challenge.${name}`,
      txt_value: attributes.verification_token,
      verified_at: null,
      last_checked_at: null,
      last_check_passed_at: null,
      check_failures_count: 0,
      source: 'manual',
      created_at: attributes.created_at,
      updated_at: attributes.updated_at,
    });
    const verify = () => send('POST', `/v1/verified_domains/${domain.id}/verify`);

    const missing = await verify();
    assert.equal(missing.status, 200, JSON.stringify(missing.body));
    assert.deepEqual([missing.body.data.attributes.verification_status, missing.body.data.attributes.check_failures_count, missing.body.data.attributes.verified_at], ['pending', 1, null]);
    assert.ok(missing.body.data.attributes.last_checked_at);
    published.set(attributes.txt_host, [['something-else'], ['another']]);
    assert.equal((await verify()).body.data.attributes.verification_status, 'pending', 'only the token counts');

    // DNS splits long strings: a record's strings are joined.
    published.set(attributes.txt_host, [['unrelated'], [attributes.txt_value.slice(0, 10), attributes.txt_value.slice(10)]]);
    const verified = (await verify()).body.data.attributes;
    assert.deepEqual([verified.verification_status, verified.check_failures_count], ['verified', 0]);
    assert.equal(verified.verified_at, verified.last_checked_at);
    assert.equal(verified.last_check_passed_at, verified.last_checked_at);
    assert.deepEqual((await send('GET', `/v1/verified_domains/${domain.id}`)).body.data.attributes, verified);

    published.clear();
    const failing = (await verify()).body.data.attributes;
    assert.deepEqual([failing.verification_status, failing.verified_at, failing.check_failures_count], ['failing', verified.verified_at, 1]);
    published.set(attributes.txt_host, [[attributes.txt_value]]);
    const again = (await verify()).body.data.attributes;
    assert.deepEqual([again.verification_status, again.verified_at], ['verified', verified.verified_at], 'the first verification time is kept');
    assert.deepEqual(await outboxTypes(w.api, domain.id), ['verified_domain.created', ...Array(5).fill('verified_domain.updated')]);
  });

  test('the domain is a hostname (lower-cased, no scheme, port or path), once per organization: 422 naming domain otherwise', async () => {
    for (const bad of ['https://status.example.com', 'status.example.com:8443', 'status.example.com/path', 'localhost', '-bad.example.com', 'exa mple.com', '10.0.0.1', `${'a'.repeat(64)}.example.com`]) {
      const res = await send('POST', '/v1/verified_domains', doc(bad));
      assert.equal(res.status, 422, `${bad}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(pointers(res), ['/data/attributes/domain'], bad);
      assert.deepEqual(errorCodes(res), ['422/INVALID_DOMAIN/Invalid attribute'], bad);
    }
    assert.match((await send('POST', '/v1/verified_domains', doc('https://status.example.com'))).body.errors[0].detail, /without a scheme/);
    assert.deepEqual(pointers(await send('POST', '/v1/verified_domains', { data: { type: 'verified_domains', attributes: {} } })), ['/data/attributes/domain']);

    const name = fresh();
    created(await send('POST', '/v1/verified_domains', doc(name)));
    const twice = await send('POST', '/v1/verified_domains', doc(name.toUpperCase()));
    assert.deepEqual([twice.status, pointers(twice), errorCodes(twice)], [422, ['/data/attributes/domain'], ['422/DOMAIN_TAKEN/Invalid attribute']]);
    const theirs = created(await send('POST', '/v1/verified_domains', doc(name), w.other.token));
    assert.equal(theirs.attributes.domain, name, 'another organization may claim the same domain');

    // Concurrent creates of one domain: one takes it, the others answer as the sequential case does.
    const raced = fresh();
    const answers = await Promise.all(Array.from({ length: 6 }, () => send('POST', '/v1/verified_domains', doc(raced))));
    assert.deepEqual(answers.map((res) => res.status).sort(), [201, 422, 422, 422, 422, 422]);
    assert.ok(answers.filter((res) => res.status === 422).every((res) => errorCodes(res)[0] === '422/DOMAIN_TAKEN/Invalid attribute'));
    assert.deepEqual(ids(await send('GET', `/v1/verified_domains?filter[domain]=${name}`)).length, 1);
  });

  test('is listed, deleted, and another organization’s domain answers 404 on every route', async () => {
    const mine = created(await send('POST', '/v1/verified_domains', doc(fresh())));
    const theirs = created(await send('POST', '/v1/verified_domains', doc(fresh()), w.other.token));
    assert.ok(ids(await send('GET', '/v1/verified_domains')).includes(mine.id));
    assert.ok(!ids(await send('GET', '/v1/verified_domains')).includes(theirs.id));
    for (const [method, path] of [
      ['GET', `/v1/verified_domains/${theirs.id}`],
      ['POST', `/v1/verified_domains/${theirs.id}/verify`],
      ['DELETE', `/v1/verified_domains/${theirs.id}`],
      ['POST', `/v1/verified_domains/${randomUUID()}/verify`],
    ]) {
      const res = await send(method, path);
      assert.equal(res.status, 404, `${method} ${path}: ${JSON.stringify(res.body)}`);
    }
    assert.equal((await send('GET', `/v1/verified_domains/${theirs.id}`, undefined, w.other.token)).body.data.attributes.verification_status, 'pending');
    assert.deepEqual((await send('DELETE', `/v1/verified_domains/${mine.id}`)).body.data.id, mine.id);
    assert.equal((await send('GET', `/v1/verified_domains/${mine.id}`)).status, 404);
  });
});
