import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { issueScimToken } from '@taproot/identity';
import { eventually, startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** RFC 7644 §3.3's creation example, its userName an e-mail (Taproot's users are reached by e-mail). */
const bjensen = (userName = 'bjensen@example.com') => ({
  schemas: [USER],
  userName,
  externalId: 'bjensen',
  name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
});

function assertScimError(res: TestResponse, status: number, scimType?: string, detail?: RegExp): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(res.headers.get('content-type') ?? '', /^application\/scim\+json/);
  expect(res.body).toMatchObject({ schemas: [ERROR], status: String(status) });
  assert.equal(res.body.scimType, scimType);
  if (detail) assert.match(res.body.detail, detail);
}

describe('SCIM 2.0 provisioning (/scim/v2)', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  let token: string;
  let otherToken: string;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
    token = await issueScimToken(api.runtime.dataSource, org.organizationId);
    otherToken = await issueScimToken(api.runtime.dataSource, other.organizationId);
  });
  after(() => api?.close());

  const scim = (method: string, path: string, body?: unknown, as = token) =>
    api.request(method, `/scim/v2${path}`, { token: as, body, headers: body === undefined ? {} : { 'content-type': 'application/scim+json' } });
  const patch = (path: string, Operations: unknown[], as = token) => scim('PATCH', path, { schemas: [PATCH_OP], Operations }, as);

  test('discovery: ServiceProviderConfig, ResourceTypes, Schemas', async () => {
    const config = await scim('GET', '/ServiceProviderConfig');
    assert.equal(config.status, 200);
    assert.match(config.headers.get('content-type') ?? '', /^application\/scim\+json/);
    expect(config.body).toMatchObject({ patch: { supported: true }, filter: { supported: true, maxResults: 200 }, bulk: { supported: false } });
    const types = await scim('GET', '/ResourceTypes');
    expect(types.body.Resources.map((t: { id: string; endpoint: string }) => [t.id, t.endpoint])).toEqual([['User', '/Users'], ['Group', '/Groups']]);
    const schemas = await scim('GET', '/Schemas');
    expect(schemas.body.Resources.map((s: { id: string }) => s.id)).toEqual([USER, GROUP]);
    assert.equal((await scim('GET', `/Schemas/${USER}`)).body.name, 'User');
    assertScimError(await scim('GET', '/Schemas/nope'), 404);
    assertScimError(await scim('GET', '/Widgets'), 404, undefined, /No SCIM endpoint \/scim\/v2\/Widgets/);
  });

  test('a ListResponse has RFC 7644 §3.4.2\'s members: totalResults (not totalCount), startIndex, itemsPerPage, Resources', async () => {
    for (const path of ['/Users?count=0', '/Groups', '/Schemas', '/ResourceTypes']) {
      const list = await scim('GET', path);
      assert.equal(list.status, 200, JSON.stringify(list.body));
      expect(Object.keys(list.body).sort()).toEqual(['Resources', 'itemsPerPage', 'schemas', 'startIndex', 'totalResults']);
    }
    expect((await scim('GET', '/Users?count=0')).body).toMatchObject({ totalResults: 1, itemsPerPage: 0, Resources: [] });
  });

  test('every attribute a User or a Group answers with is declared in its schema (RFC 7643 §7), down to sub-attributes', async () => {
    // Its own organization: the other tests count the users of theirs.
    const as = await issueScimToken(api.runtime.dataSource, (await api.newOrganization()).organizationId);
    const user = (await scim('POST', '/Users', bjensen(), as)).body;
    const group = (await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Declared', externalId: 'declared', members: [{ value: user.id }] }, as)).body;
    const member = (await scim('GET', `/Users/${user.id}`, undefined, as)).body;
    type Attribute = { name: string; subAttributes?: Attribute[] };
    // RFC 7643 §3.1: schemas, id and meta are common to every resource, not in its schema.
    const undeclared = (resource: Record<string, unknown>, attributes: Attribute[], at = ''): string[] =>
      Object.entries(resource).flatMap(([name, value]) => {
        if (!at && ['schemas', 'id', 'meta'].includes(name)) return [];
        const declared = attributes.find((a) => a.name === name);
        if (!declared) return [`${at}${name}`];
        const values = (Array.isArray(value) ? value : [value]).filter((v) => typeof v === 'object' && v !== null);
        return values.flatMap((v) => undeclared(v as Record<string, unknown>, declared.subAttributes ?? [], `${at}${name}.`));
      });
    for (const [resource, schema] of [[member, USER], [group, GROUP]] as const) {
      assert.ok(resource.groups?.length || resource.members?.length, 'the check sees a multi-valued complex attribute');
      const { attributes } = (await scim('GET', `/Schemas/${schema}`, undefined, as)).body;
      expect([...new Set(undeclared(resource, attributes))]).toEqual([]);
    }
  });

  test('the bearer token: the organization\'s SCIM token only; a reissued one replaces it', async () => {
    assertScimError(await api.request('GET', '/scim/v2/Users'), 401, undefined, /Bearer <SCIM token>/);
    assertScimError(await scim('GET', '/Users', undefined, 'scim_not-a-token'), 401, undefined, /unknown or was replaced/);
    // An API key of the organization is no SCIM token.
    assertScimError(await scim('GET', '/Users', undefined, org.token), 401);
    const third = await api.newOrganization();
    const first = await issueScimToken(api.runtime.dataSource, third.organizationId);
    assert.equal((await scim('GET', '/Users', undefined, first)).status, 200);
    const second = await issueScimToken(api.runtime.dataSource, third.organizationId);
    assertScimError(await scim('GET', '/Users', undefined, first), 401);
    assert.equal((await scim('GET', '/Users', undefined, second)).status, 200);
  });

  test('Users: create (RFC 7644 §3.3), uniqueness, filters, paging, get, replace, PATCH add/replace/remove, active false, delete', async () => {
    const created = await scim('POST', '/Users', bjensen());
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.match(created.headers.get('content-type') ?? '', /^application\/scim\+json/);
    const id: string = created.body.id;
    expect(created.body).toMatchObject({
      schemas: [USER],
      userName: 'bjensen@example.com',
      externalId: 'bjensen',
      name: { givenName: 'Barbara', familyName: 'Jensen', formatted: 'Barbara Jensen' },
      emails: [{ value: 'bjensen@example.com', type: 'work', primary: true }],
      active: true,
      groups: [],
      meta: { resourceType: 'User', location: expect.stringMatching(new RegExp(`/scim/v2/Users/${id}$`)) },
    });
    assert.equal(created.headers.get('location'), created.body.meta.location);
    // A Taproot user with the User role, seen on /v1 too.
    const v1 = await api.request('GET', `/v1/users/${id}`, { token: org.token });
    assert.equal(v1.body.data.attributes.email, 'bjensen@example.com');

    assertScimError(await scim('POST', '/Users', bjensen('BJensen@example.com')), 409, 'uniqueness', /email "BJensen@example.com" already exists/);
    assertScimError(await scim('POST', '/Users', { ...bjensen('other@example.com') }), 409, 'uniqueness', /external_id "bjensen"/);
    assertScimError(await scim('POST', '/Users', { schemas: [USER], userName: 'bjensen' }), 400, 'invalidValue', /userName must be an e-mail address, got "bjensen"/);
    assertScimError(await scim('POST', '/Users', { schemas: [USER] }), 400, 'invalidValue', /userName is required/);
    assertScimError(await scim('POST', '/Users', { userName: 'x@example.com' }), 400, 'invalidSyntax', /schemas must include/);
    assertScimError(await scim('POST', '/Users', { schemas: [USER], userName: 'x@example.com', name: { givenName: 7 } }), 400, 'invalidValue', /name\.givenName must be a string/);
    const second = await scim('POST', '/Users', { schemas: [USER], userName: 'jsmith@example.com', externalId: 'JS-1', name: { givenName: 'John', familyName: 'Smith' } });
    assert.equal(second.status, 201);

    const ids = (res: TestResponse) => res.body.Resources.map((r: { id: string }) => r.id);
    const filtered = async (filter: string) => {
      const res = await scim('GET', `/Users?filter=${encodeURIComponent(filter)}`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res;
    };
    const byName = await filtered('userName eq "BJENSEN@example.com"');
    expect(byName.body).toMatchObject({ schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 1, startIndex: 1, itemsPerPage: 1 });
    expect(ids(byName)).toEqual([id]);
    expect(ids(await filtered('externalId eq "bjensen"'))).toEqual([id]);
    expect(ids(await filtered('externalId eq "BJENSEN"'))).toEqual([]); // caseExact
    expect(ids(await filtered('emails[type eq "work"].value eq "jsmith@example.com"'))).toEqual([second.body.id]);
    expect(ids(await filtered('userName eq "bjensen@example.com" or externalId eq "JS-1"'))).toEqual([id, second.body.id]);
    expect(ids(await filtered('userName sw "j" and name.familyName eq "smith"'))).toEqual([second.body.id]);
    // The owner is a user too: three in all, one page of two from the second.
    const page = await scim('GET', '/Users?startIndex=2&count=2');
    expect([page.body.totalResults, page.body.startIndex, page.body.itemsPerPage]).toEqual([3, 2, 2]);
    expect(ids(page)).toEqual([id, second.body.id]);
    assertScimError(await scim('GET', '/Users?filter=userName%20eq'), 400, 'invalidFilter', /is not a SCIM filter/);
    assertScimError(await scim('GET', `/Users?filter=${encodeURIComponent('nickName eq "x"')}`), 400, 'invalidFilter', /unknown or unfilterable attribute "nickName"/);
    assertScimError(await scim('GET', '/Users?count=lots'), 400, 'invalidValue', /count must be an integer/);

    expect((await scim('GET', `/Users/${id}`)).body.userName).toBe('bjensen@example.com');
    assertScimError(await scim('GET', '/Users/999999'), 404);
    assertScimError(await scim('GET', '/Users/not-a-number'), 404);

    const replaced = await scim('PUT', `/Users/${id}`, { ...bjensen('babs@example.com'), name: { givenName: 'Babs', familyName: 'Jensen' } });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    expect(replaced.body).toMatchObject({ userName: 'babs@example.com', displayName: 'Babs Jensen', externalId: 'bjensen' });

    // RFC 7644 §3.5.2: add, replace (with and without a path), remove.
    const patched = await patch(`/Users/${id}`, [
      { op: 'replace', path: 'name.familyName', value: 'Jensen-Smith' },
      { op: 'replace', value: { userName: 'barbara@example.com' } },
      { op: 'remove', path: 'externalId' },
      { op: 'add', path: 'name.givenName', value: 'Barbara' },
    ]);
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    expect(patched.body).toMatchObject({ userName: 'barbara@example.com', name: { givenName: 'Barbara', familyName: 'Jensen-Smith' } });
    assert.equal(patched.body.externalId, undefined);
    assertScimError(await scim('PATCH', `/Users/${id}`, { Operations: [] }), 400, 'invalidSyntax', /PatchOp/);
    assertScimError(await patch(`/Users/${id}`, [{ op: 'replace', path: 'userName', value: 'jsmith@example.com' }]), 409, 'uniqueness');
    assertScimError(await patch(`/Users/${id}`, [{ op: 'replace', path: 'active', value: 'maybe' }]), 400, 'invalidValue', /active must be a boolean/);

    // Deprovisioning: active false removes the user (Azure AD sends "False").
    const deactivated = await patch(`/Users/${id}`, [{ op: 'replace', path: 'active', value: 'False' }]);
    assert.equal(deactivated.status, 200, JSON.stringify(deactivated.body));
    assert.equal(deactivated.body.active, false);
    assertScimError(await scim('GET', `/Users/${id}`), 404);
    assert.equal((await api.request('GET', `/v1/users/${id}`, { token: org.token })).status, 404);

    const deleted = await scim('DELETE', `/Users/${second.body.id}`);
    assert.equal(deleted.status, 204);
    assertScimError(await scim('DELETE', `/Users/${second.body.id}`), 404);
    // The owner is not the identity provider's to remove when it is the last one.
    const owner = (await filtered('userName eq "owner@example.test"')).body.Resources[0];
    assertScimError(await scim('DELETE', `/Users/${owner.id}`), 409, undefined, /only owner/);
  });

  test('Groups are teams: create with members, filter by displayName, PATCH members add/remove (members[value eq "id"]), replace, delete', async () => {
    const user = async (email: string) => (await scim('POST', '/Users', { schemas: [USER], userName: email })).body.id as string;
    const [ann, bob, cid] = [await user('ann@example.com'), await user('bob@example.com'), await user('cid@example.com')];
    const created = await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Tour Guides', externalId: 'okta-1', members: [{ value: ann }] });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id: string = created.body.id;
    expect(created.body).toMatchObject({ schemas: [GROUP], displayName: 'Tour Guides', externalId: 'okta-1', members: [{ value: ann, display: 'ann@example.com', type: 'User' }], meta: { resourceType: 'Group' } });
    const team = await api.request('GET', `/v1/teams/${id}`, { token: org.token });
    expect(team.body.data.attributes).toMatchObject({ name: 'Tour Guides', user_ids: [Number(ann)] });
    expect((await scim('GET', `/Users/${ann}`)).body.groups).toMatchObject([{ value: id, display: 'Tour Guides' }]);

    const byName = await scim('GET', `/Groups?filter=${encodeURIComponent('displayName eq "tour guides"')}`);
    expect(byName.body.Resources.map((g: { id: string }) => g.id)).toEqual([id]);

    const added = await patch(`/Groups/${id}`, [{ op: 'add', path: 'members', value: [{ value: bob }, { value: cid }] }]);
    assert.equal(added.status, 200, JSON.stringify(added.body));
    expect(added.body.members.map((m: { value: string }) => m.value).sort()).toEqual([ann, bob, cid].sort());
    const removed = await patch(`/Groups/${id}`, [{ op: 'remove', path: `members[value eq "${bob}"]` }]);
    expect(removed.body.members.map((m: { value: string }) => m.value).sort()).toEqual([ann, cid].sort());
    assertScimError(await patch(`/Groups/${id}`, [{ op: 'add', path: 'members', value: [{ value: '999999' }] }]), 400, 'invalidValue', /user 999999 is not a user of this organization/);
    assertScimError(await patch(`/Groups/${id}`, [{ op: 'add', path: 'members', value: [{ value: 'abc' }] }]), 400, 'invalidValue', /members\[2\]\.value must be the id of a User/);
    const renamed = await patch(`/Groups/${id}`, [{ op: 'replace', path: 'displayName', value: 'Guides' }]);
    assert.equal(renamed.body.displayName, 'Guides');

    const replaced = await scim('PUT', `/Groups/${id}`, { schemas: [GROUP], displayName: 'Guides', members: [{ value: bob }] });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    expect(replaced.body.members.map((m: { value: string }) => m.value)).toEqual([bob]);
    assert.equal(replaced.body.externalId, undefined);

    assert.equal((await scim('DELETE', `/Groups/${id}`)).status, 204);
    assertScimError(await scim('GET', `/Groups/${id}`), 404);
  });

  test('one organization: another organization\'s users and groups are 404 on every verb and absent from lists', async () => {
    const user = (await scim('POST', '/Users', { schemas: [USER], userName: 'mine@example.com' })).body.id;
    const group = (await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Mine' })).body.id;
    for (const path of [`/Users/${user}`, `/Groups/${group}`]) {
      assertScimError(await scim('GET', path, undefined, otherToken), 404);
      assertScimError(await scim('PUT', path, { schemas: [path.startsWith('/Users') ? USER : GROUP], userName: 'x@example.com', displayName: 'X' }, otherToken), 404);
      assertScimError(await patch(path, [{ op: 'replace', path: 'displayName', value: 'X' }], otherToken), 404);
      assertScimError(await scim('DELETE', path, undefined, otherToken), 404);
    }
    const theirs = await scim('GET', '/Users', undefined, otherToken);
    expect(theirs.body.Resources.map((u: { userName: string }) => u.userName)).toEqual(['owner@example.test']);
    assert.equal((await scim('GET', '/Groups', undefined, otherToken)).body.totalResults, 0);
    // Their team cannot take our user either.
    assertScimError(await scim('POST', '/Groups', { schemas: [GROUP], displayName: 'Theirs', members: [{ value: user }] }, otherToken), 400, 'invalidValue', /is not a user of this organization/);
  });

  test('SCIM changes are in the audit log, as the system acting for the token, with the request\'s metadata', async () => {
    const created = await scim('POST', '/Users', { schemas: [USER], userName: 'audited@example.com' });
    const audits = await eventually(
      () => api.request('GET', '/v1/audits?page[size]=100', { token: org.token }),
      (res) => res.body.data?.some((a: { attributes: { item_id: string } }) => a.attributes.item_id === created.body.id),
    );
    const row = audits.body.data.find((a: { attributes: { item_id: string } }) => a.attributes.item_id === created.body.id);
    expect(row.attributes).toMatchObject({ event: 'create', source: 'system', object: { email: 'audited@example.com' } });
    assert.ok(row.attributes.request_id, 'the request id is recorded');
    const [event] = await api.runtime.dataSource.query(`SELECT event FROM outbox WHERE event->>'type' = 'user.created' AND event->>'aggregate_id' = $1`, [created.body.id]);
    assert.match(event.event.actor.id, /^scim_token:[0-9a-f-]{36}$/);
  });
});
