import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { newStatusPage } from './support/status-pages';
import { type Attributes, created, errorCodes, ids, outboxEvents, pointers, unique } from './support/json-api';

const grant = (attributes: Attributes, extra: Attributes = {}) => ({ data: { type: 'status_page_groups', attributes, ...extra } });

const w = useApiWorld();
const { send } = w;

const page = (token?: string) => newStatusPage(w, {}, token);
const team = async (token = w.org.token) => created(await send('POST', '/v1/teams', { data: { type: 'groups', attributes: { name: unique('Team') } } }, token)) as { id: string };
const assign = async (pageId: string, attributes: Attributes) => created(await send('POST', `/v1/status-pages/${pageId}/teams`, grant(attributes))) as { id: string; attributes: Attributes };
/** A key acting with the organization's system role of that kind. */
const keyOf = async (kind: string) => w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: (await send('GET', `/v1/roles?filter[system_role]=${kind}`)).body.data[0].id });

/** `/v1/status-pages/{status_page_id}/teams` (the spec's "Status page team assignment"; docs/status-pages.md). */
describe('status page teams', () => {
  test('a grant answers every field of the spec; list, read, update and delete under its page', async () => {
    const { id: pageId } = await page();
    const { id: groupId } = await team();
    const made = await assign(pageId, { group_id: groupId });
    assert.deepEqual(Object.keys(made.attributes).sort(), ['created_at', 'group_id', 'permission_level', 'status_page_id', 'updated_at']);
    assert.deepEqual([made.attributes.status_page_id, made.attributes.group_id, made.attributes.permission_level], [pageId, groupId, 'publish_only']);
    assert.deepEqual(ids(await send('GET', `/v1/status-pages/${pageId}/teams`)), [made.id]);
    assert.deepEqual((await send('GET', `/v1/status-pages/${pageId}/teams/${made.id}`)).body.data, { id: made.id, type: 'status_page_groups', attributes: made.attributes });

    // The spec's update: permission_level, and an id that is accepted and ignored.
    const updated = await send('PUT', `/v1/status-pages/${pageId}/teams/${made.id}`, grant({ permission_level: 'edit_and_publish' }, { id: 'anything' }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual([updated.body.data.id, updated.body.data.attributes.permission_level, updated.body.data.attributes.group_id], [made.id, 'edit_and_publish', groupId]);

    const removed = await send('DELETE', `/v1/status-pages/${pageId}/teams/${made.id}`);
    assert.equal(removed.status, 200);
    assert.equal((await send('GET', `/v1/status-pages/${pageId}/teams/${made.id}`)).status, 404);
    assert.deepEqual((await outboxEvents(w.api, made.id)).map((e) => e.type), ['status_page_group.created', 'status_page_group.updated', 'status_page_group.deleted']);
  });

  test('the update takes permission_level only: other properties, a changed team or a bad level answer 422 naming them', async () => {
    const { id: pageId } = await page();
    const made = await assign(pageId, { group_id: (await team()).id, permission_level: 'edit_and_publish' });
    const path = `/v1/status-pages/${pageId}/teams/${made.id}`;
    const extra = await send('PUT', path, grant({ permission_level: 'publish_only', group_id: (await team()).id, status_page_id: pageId }, { relationships: {} }));
    assert.equal(extra.status, 422);
    assert.deepEqual(pointers(extra), ['/data/relationships', '/data/attributes/group_id', '/data/attributes/status_page_id']);
    assert.match(extra.body.errors[1].detail, /group_id is not allowed/);
    const level = await send('PUT', path, grant({ permission_level: 'owner' }));
    assert.deepEqual([level.status, pointers(level)], [422, ['/data/attributes/permission_level']]);
    const wrongType = await send('PUT', path, { data: { type: 'groups', attributes: { permission_level: 'publish_only' } } });
    assert.equal(wrongType.status, 422);
    const noAttributes = await send('PUT', path, { data: { type: 'status_page_groups' } });
    assert.equal(noAttributes.status, 422);
    assert.deepEqual((await send('GET', path)).body.data.attributes, made.attributes, 'nothing changed');
  });

  test('a missing grant answers 404 with an errors list, also one of another page or organization', async () => {
    const { id: pageId } = await page();
    const { id: otherPage } = await page();
    const made = await assign(pageId, { group_id: (await team()).id });
    for (const path of [`/v1/status-pages/${pageId}/teams/00000000-0000-4000-8000-000000000000`, `/v1/status-pages/${otherPage}/teams/${made.id}`]) {
      const res = await send('PUT', path, grant({ permission_level: 'publish_only' }));
      assert.deepEqual([res.status, errorCodes(res)], [404, ['404/NOT_FOUND/Not found']], path);
      assert.equal((await send('DELETE', path)).status, 404);
      assert.equal((await send('GET', path)).status, 404);
    }
    for (const [method, body] of [['GET'], ['PUT', grant({ permission_level: 'publish_only' })], ['DELETE']] as const) {
      assert.equal((await send(method, `/v1/status-pages/${pageId}/teams/${made.id}`, body, w.other.token)).status, 404, method);
    }
    assert.equal((await send('GET', `/v1/status-pages/${pageId}/teams`, undefined, w.other.token)).status, 404);
    assert.equal((await send('POST', `/v1/status-pages/${pageId}/teams`, grant({ group_id: (await team(w.other.token)).id }), w.other.token)).status, 404);
  });

  test("the team must be the organization's, once per page", async () => {
    const { id: pageId } = await page();
    const foreign = await team(w.other.token);
    const unknown = await send('POST', `/v1/status-pages/${pageId}/teams`, grant({ group_id: foreign.id }));
    assert.deepEqual([unknown.status, pointers(unknown)], [422, ['/data/attributes/group_id']]);
    assert.match(unknown.body.errors[0].detail, /is not a team of this organization/);
    const missing = await send('POST', `/v1/status-pages/${pageId}/teams`, grant({ permission_level: 'publish_only' }));
    assert.deepEqual([missing.status, pointers(missing)], [422, ['/data/attributes/group_id']]);
    const { id: groupId } = await team();
    await assign(pageId, { group_id: groupId });
    const again = await send('POST', `/v1/status-pages/${pageId}/teams`, grant({ group_id: groupId, permission_level: 'edit_and_publish' }));
    assert.deepEqual([again.status, pointers(again), errorCodes(again)], [422, ['/data/attributes/group_id'], ['422/TEAM_ALREADY_GRANTED/Invalid attribute']]);

    // Concurrent grants of one team: one is made, the others answer as the sequential case does.
    const [{ id: racedPage }, { id: racedTeam }] = [await page(), await team()];
    const answers = await Promise.all(Array.from({ length: 6 }, () => send('POST', `/v1/status-pages/${racedPage}/teams`, grant({ group_id: racedTeam }))));
    assert.deepEqual(answers.map((res) => res.status).sort(), [201, 422, 422, 422, 422, 422]);
    assert.ok(answers.filter((res) => res.status === 422).every((res) => errorCodes(res)[0] === '422/TEAM_ALREADY_GRANTED/Invalid attribute'));
    assert.equal(ids(await send('GET', `/v1/status-pages/${pageId}/teams`)).length, 1);
    // The same team on another page is another grant.
    await assign((await page()).id, { group_id: groupId });
  });

  test('writes need an owner or admin role (403 otherwise); reads need status_pages read', async () => {
    const { id: pageId } = await page();
    const made = await assign(pageId, { group_id: (await team()).id });
    const path = `/v1/status-pages/${pageId}/teams/${made.id}`;
    const admin = await keyOf('admin');
    const changed = await send('PUT', path, grant({ permission_level: 'edit_and_publish' }), admin);
    assert.equal(changed.status, 200, JSON.stringify(changed.body));

    // A custom role holding every status_pages permission is still not an owner or admin.
    const role = created(await send('POST', '/v1/roles', { data: { type: 'roles', attributes: { name: unique('Pages'), status_pages_permissions: ['create', 'read', 'update', 'delete'] } } }));
    const editor = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: role.id });
    for (const [method, target, body] of [
      ['PUT', path, grant({ permission_level: 'publish_only' })],
      ['POST', `/v1/status-pages/${pageId}/teams`, grant({ group_id: (await team()).id })],
      ['DELETE', path],
    ] as const) {
      const res = await send(method, target, body, editor);
      assert.deepEqual([res.status, errorCodes(res)], [403, ['403/OWNER_OR_ADMIN_REQUIRED/Forbidden']], method);
    }
    assert.equal((await send('GET', path, undefined, editor)).status, 200);
    const user = await keyOf('user');
    assert.equal((await send('GET', `/v1/status-pages/${pageId}/teams`, undefined, user)).status, 200);
    assert.equal((await send('PUT', path, grant({ permission_level: 'publish_only' }), user)).status, 403);
    const none = await keyOf('no_access');
    assert.equal((await send('GET', path, undefined, none)).status, 403);
    assert.equal((await send('GET', path)).body.data.attributes.permission_level, 'edit_and_publish', 'nothing changed');
  });
});
