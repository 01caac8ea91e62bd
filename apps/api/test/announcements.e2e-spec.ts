import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { newStatusPage } from './support/status-pages';
import { type Attributes, created, errorCodes, ids, outboxTypes, pointers, unique } from './support/json-api';

const doc = (attributes: Attributes) => ({ data: { type: 'status_page_announcements', attributes } });
const HOUR = 3_600_000;
const at = (offset: number) => new Date(Date.now() + offset).toISOString();

describe('status page announcements', () => {
  const w = useApiWorld();
  const { send } = w;

  const newPage = async (token?: string) => (await newStatusPage(w, {}, token)).id;
  const announce = async (page: string, attributes: Attributes = {}, token = w.org.token) =>
    created(await send('POST', `/v1/status-pages/${page}/announcements`, doc({ title: unique('Maintenance'), body: 'We move racks on Saturday.', ...attributes }), token));

  test('is created with its defaults (starts now, no end, enabled, posted by the key’s user), read, changed and deleted at /v1/announcements/{id}', async () => {
    const page = await newPage();
    const userId = await w.api.addUser(w.org.organizationId, { roleKind: 'admin' });
    const personal = await w.api.issueApiKey(w.org.organizationId, { kind: 'personal', userId });
    const before = Date.now();
    const announcement = await announce(page, { title: 'Saturday maintenance' }, personal);
    assert.equal(announcement.type, 'status_page_announcements');
    const { attributes } = announcement;
    assert.deepEqual(attributes, {
      status_page_id: page,
      title: 'Saturday maintenance',
      body: 'We move racks on Saturday.',
      starts_at: attributes.published_at,
      ends_at: null,
      enabled: true,
      notify_subscribers: true,
      published_at: attributes.created_at,
      user_id: userId,
      created_at: attributes.created_at,
      updated_at: attributes.updated_at,
    });
    assert.ok(Date.parse(attributes.starts_at) >= before - 1000);
    assert.deepEqual((await send('GET', `/v1/announcements/${announcement.id}`)).body.data, announcement);

    const changed = await send('PUT', `/v1/announcements/${announcement.id}`, doc({ body: 'Moved to Sunday.', ends_at: at(2 * HOUR), enabled: false }));
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(changed.body.data.attributes, { ...attributes, body: 'Moved to Sunday.', ends_at: changed.body.data.attributes.ends_at, enabled: false, updated_at: changed.body.data.attributes.updated_at });
    assert.deepEqual((await send('DELETE', `/v1/announcements/${announcement.id}`)).body.data, changed.body.data);
    assert.equal((await send('GET', `/v1/announcements/${announcement.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, announcement.id), ['status_page_announcement.created', 'status_page_announcement.updated', 'status_page_announcement.deleted']);
  });

  test('ends after it starts: 422 naming ends_at on create and update, nothing changed', async () => {
    const page = await newPage();
    const refused = await send('POST', `/v1/status-pages/${page}/announcements`, doc({ title: 'x', body: 'y', starts_at: '2026-12-01T10:00:00Z', ends_at: '2026-12-01T10:00:00Z' }));
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.deepEqual(pointers(refused), ['/data/attributes/ends_at']);
    assert.deepEqual(errorCodes(refused), ['422/ENDS_BEFORE_STARTS/Invalid attribute']);
    assert.match(refused.body.errors[0].detail, /ends_at \(2026-12-01T10:00:00.000Z\) must be after starts_at \(2026-12-01T10:00:00.000Z\)/);
    assert.deepEqual(pointers(await send('POST', `/v1/status-pages/${page}/announcements`, doc({ body: 'y' }))), ['/data/attributes/title']);

    const announcement = await announce(page, { starts_at: '2026-12-01T10:00:00Z', ends_at: '2026-12-01T12:00:00Z' });
    const later = await send('PUT', `/v1/announcements/${announcement.id}`, doc({ starts_at: '2026-12-01T13:00:00Z' }));
    assert.deepEqual([later.status, pointers(later)], [422, ['/data/attributes/ends_at']]);
    assert.deepEqual((await send('GET', `/v1/announcements/${announcement.id}`)).body.data, announcement);
  });

  test('filter[active]: enabled, started and not ended now', async () => {
    const page = await newPage();
    const current = await announce(page, { starts_at: at(-HOUR) });
    const endsLater = await announce(page, { starts_at: at(-HOUR), ends_at: at(HOUR) });
    const ended = await announce(page, { starts_at: at(-2 * HOUR), ends_at: at(-HOUR) });
    const upcoming = await announce(page, { starts_at: at(HOUR) });
    const disabled = await announce(page, { starts_at: at(-HOUR), enabled: false });
    const of = `/v1/status-pages/${page}/announcements`;
    assert.deepEqual(ids(await send('GET', of)), [current.id, endsLater.id, ended.id, upcoming.id, disabled.id]);
    assert.deepEqual(ids(await send('GET', `${of}?filter[active]=true`)), [current.id, endsLater.id]);
    assert.deepEqual(ids(await send('GET', `${of}?filter[active]=false`)), [ended.id, upcoming.id, disabled.id]);
    assert.equal((await send('GET', `${of}?filter[active]=soon`)).status, 400);
  });

  test('another organization’s pages and announcements answer 404', async () => {
    const theirs = await announce(await newPage(w.other.token), {}, w.other.token);
    const theirPage = theirs.attributes.status_page_id;
    for (const [method, path, body] of [
      ['GET', `/v1/status-pages/${theirPage}/announcements`],
      ['POST', `/v1/status-pages/${theirPage}/announcements`, doc({ title: 'x', body: 'y' })],
      ['GET', `/v1/announcements/${theirs.id}`],
      ['PUT', `/v1/announcements/${theirs.id}`, doc({ title: 'x' })],
      ['DELETE', `/v1/announcements/${theirs.id}`],
    ] as [string, string, unknown?][]) {
      const res = await send(method, path, body);
      assert.equal(res.status, 404, `${method} ${path}: ${JSON.stringify(res.body)}`);
    }
    assert.equal((await send('GET', `/v1/announcements/${theirs.id}`, undefined, w.other.token)).body.data.attributes.title, theirs.attributes.title);
  });
});
