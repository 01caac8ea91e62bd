import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';

/**
 * Team API keys (spec, API keys: "same permissions as a team admin; full read and edit on
 * entities the team owns"): a member's reads (the organization's User roles) plus create,
 * update and delete of records whose owning teams include the key's team, and administration of
 * that team itself. Everything else it may not change.
 */
describe('team API keys', () => {
  let api: TestApi;
  let org: TestOrganization;
  let mine: string;
  let theirs: string;
  let teamKey: string;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    mine = await newTeam('Payments');
    theirs = await newTeam('Search');
    const created = await api.request('POST', '/v1/api_keys', {
      token: org.token,
      body: { data: { type: 'api_keys', attributes: { name: 'Payments CI', kind: 'team', group_id: mine, expires_at: new Date(Date.now() + 86_400_000).toISOString() } } },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    teamKey = created.body.data.attributes.token;
  });
  after(() => api?.close());

  async function newTeam(name: string): Promise<string> {
    const res = await api.request('POST', '/v1/teams', { token: org.token, body: { data: { type: 'groups', attributes: { name } } } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.data.id;
  }
  const service = (attributes: Record<string, unknown>) => ({ data: { type: 'services', attributes } });
  const asTeam = (method: string, path: string, body?: unknown) => api.request(method, path, { token: teamKey, body });
  async function ownedBy(owners: string[]): Promise<string> {
    const res = await api.request('POST', '/v1/services', { token: org.token, body: service({ name: `Svc ${randomUUID().slice(0, 8)}`, owner_group_ids: owners }) });
    assert.equal(res.status, 201);
    return res.body.data.id;
  }

  test('reads like a member: services, severities and teams, but not API keys or the audit log', async () => {
    for (const path of ['/v1/services', '/v1/severities', '/v1/teams', `/v1/services/${await ownedBy([theirs])}`]) {
      assert.equal((await asTeam('GET', path)).status, 200, path);
    }
    for (const path of ['/v1/api_keys', '/v1/audits']) assert.equal((await asTeam('GET', path)).status, 403, path);
  });

  test('creates a service only when its team is among the owners', async () => {
    const owned = await asTeam('POST', '/v1/services', service({ name: 'Ledger', owner_group_ids: [mine, theirs] }));
    assert.equal(owned.status, 201, JSON.stringify(owned.body));
    assert.deepEqual(owned.body.data.attributes.owner_group_ids, [mine, theirs]);
    for (const attributes of [{ name: 'Unowned' }, { name: 'Someone else’s', owner_group_ids: [theirs] }]) {
      const refused = await asTeam('POST', '/v1/services', service(attributes));
      assert.equal(refused.status, 403, JSON.stringify(attributes));
      assert.equal(refused.body.errors[0].code, 'NOT_OWNED_BY_TEAM');
      assert.match(refused.body.errors[0].detail, /owner_group_ids include its team/);
    }
    const names = (await api.request('GET', '/v1/services?page[size]=100', { token: org.token })).body.data.map((d: { attributes: { name: string } }) => d.attributes.name);
    assert.ok(!names.includes('Unowned') && !names.includes('Someone else’s'), 'nothing was created');
  });

  test("updates and deletes its team's services (by id or slug), not another team's, and cannot give its own away", async () => {
    const own = await ownedBy([mine]);
    const updated = await asTeam('PUT', `/v1/services/${own}`, service({ description: 'Owned by payments' }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.data.attributes.description, 'Owned by payments');
    const bySlug = await asTeam('PUT', `/v1/services/${updated.body.data.attributes.slug}`, service({ color: '#00ff00' }));
    assert.equal(bySlug.status, 200);

    const giveAway = await asTeam('PUT', `/v1/services/${own}`, service({ owner_group_ids: [theirs] }));
    assert.equal(giveAway.status, 403);
    const other = await ownedBy([theirs]);
    for (const [method, body] of [['PUT', service({ description: 'hijacked' })], ['DELETE', undefined]] as const) {
      const refused = await asTeam(method, `/v1/services/${other}`, body);
      assert.equal(refused.status, 403, method);
      assert.equal(refused.body.errors[0].code, 'NOT_OWNED_BY_TEAM');
    }
    const untouched = await api.request('GET', `/v1/services/${other}`, { token: org.token });
    assert.equal(untouched.body.data.attributes.description, null);

    assert.equal((await asTeam('DELETE', `/v1/services/${own}`)).status, 200);
    assert.equal((await asTeam('GET', `/v1/services/${own}`)).status, 404);
    assert.equal((await asTeam('DELETE', `/v1/services/${randomUUID()}`)).status, 404, 'a missing record is a 404, as for anyone');
  });

  test('functionalities are team-owned the same way', async () => {
    const functionality = (attributes: Record<string, unknown>) => ({ data: { type: 'functionalities', attributes } });
    const own = await asTeam('POST', '/v1/functionalities', functionality({ name: 'Refunds', owner_group_ids: [mine] }));
    assert.equal(own.status, 201, JSON.stringify(own.body));
    assert.equal((await asTeam('PUT', `/v1/functionalities/${own.body.data.id}`, functionality({ description: 'ours' }))).status, 200);
    assert.equal((await asTeam('POST', '/v1/functionalities', functionality({ name: 'Indexing', owner_group_ids: [theirs] }))).status, 403);
  });

  test('alert sources are team-owned through owner_group_ids, and readable with alerts read', async () => {
    const source = (attributes: Record<string, unknown>) => ({ data: { type: 'alert_sources', attributes } });
    const own = await asTeam('POST', '/v1/alert_sources', source({ name: 'Payments Grafana', owner_group_ids: [mine] }));
    assert.equal(own.status, 201, JSON.stringify(own.body));
    const id = own.body.data.id;
    assert.equal((await asTeam('PUT', `/v1/alert_sources/${id}`, source({ enabled: false }))).status, 200);
    assert.equal((await asTeam('GET', `/v1/alert_sources/${id}`)).status, 200);
    assert.equal((await asTeam('GET', '/v1/alert_sources')).status, 200);
    const refused = await asTeam('POST', '/v1/alert_sources', source({ name: 'Search Grafana', owner_group_ids: [theirs] }));
    assert.equal(refused.status, 403);
    assert.equal(refused.body.errors[0].code, 'NOT_OWNED_BY_TEAM');
    const other = await api.request('POST', '/v1/alert_sources', { token: org.token, body: source({ name: 'Search Prometheus', owner_group_ids: [theirs] }) });
    assert.equal(other.status, 201);
    for (const [method, body] of [['PUT', source({ name: 'hijacked' })], ['DELETE', undefined]] as const) {
      assert.equal((await asTeam(method, `/v1/alert_sources/${other.body.data.id}`, body)).status, 403, method);
    }
    assert.equal((await api.request('GET', `/v1/alert_sources/${other.body.data.id}`, { token: org.token })).body.data.attributes.name, 'Search Prometheus');
    assert.equal((await asTeam('DELETE', `/v1/alert_sources/${id}`)).status, 200);
  });

  test('changes nothing it does not own in families without team ownership (severities)', async () => {
    const res = await asTeam('POST', '/v1/severities', { data: { type: 'severities', attributes: { name: 'SEV-team' } } });
    assert.equal(res.status, 403);
    assert.equal(res.body.errors[0].code, 'PERMISSION_DENIED');
  });

  test('administers its own team, membership included, and no other', async () => {
    const [{ id: userId }] = await api.runtime.dataSource.query('SELECT id FROM users WHERE organization_id = $1 LIMIT 1', [org.organizationId]);
    const renamed = await asTeam('PUT', `/v1/teams/${mine}`, { data: { type: 'groups', attributes: { description: 'Payments team', user_ids: [userId], admin_ids: [userId] } } });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.deepEqual(renamed.body.data.attributes.user_ids, [userId]);
    const other = await asTeam('PUT', `/v1/teams/${theirs}`, { data: { type: 'groups', attributes: { description: 'taken over' } } });
    assert.equal(other.status, 403);
    assert.equal((await asTeam('POST', '/v1/teams', { data: { type: 'groups', attributes: { name: 'New team' } } })).status, 403);
    assert.equal((await asTeam('DELETE', `/v1/teams/${theirs}`)).status, 403);
  });
});
