import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { created, doc, ids, outboxTypes, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

/** Authorizations (docs/authorizations.md), catalog checklist templates and their checklists (docs/catalog-checklists.md), IP ranges (docs/ip-ranges.md). */
describe('authorizations, catalog checklists and ip ranges over HTTP', () => {
  const w = useApiWorld({ env: { EGRESS_IP_RANGES: '203.0.113.0/24, 2001:db8::/32' } });
  const { send } = w;
  const me = async (token?: string) => String((await send('GET', '/v1/users/me', undefined, token)).body.data.id);
  const dashboard = (token?: string): Promise<Json> => w.create('/v1/dashboards', 'dashboards', { name: unique('Ops'), owner: 'team' }, token);
  const team = (attributes: Attributes = {}, token?: string): Promise<Json> => w.create('/v1/teams', 'groups', { name: unique('SRE'), ...attributes }, token);
  const grant = (attributes: Attributes) => send('POST', '/v1/authorizations', doc('authorizations', attributes));

  test('GET /v1/ip_ranges answers the operator\'s EGRESS_IP_RANGES split by family', async () => {
    const res = await send('GET', '/v1/ip_ranges');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.type, 'ip_ranges');
    assert.deepEqual(res.body.data.attributes, { integrations_ipv4: ['203.0.113.0/24'], integrations_ipv6: ['2001:db8::/32'], webhooks_ipv4: ['203.0.113.0/24'], webhooks_ipv6: ['2001:db8::/32'] });
  });

  test('an authorization: created on a dashboard for a team, read, filtered, its permissions updated (its names fixed), deleted; each announced', async () => {
    const [board, sre] = [await dashboard(), await team()];
    const made = created(await grant({ authorizable_id: board.id, authorizable_type: 'Dashboard', grantee_id: sre.id, grantee_type: 'Team', permissions: ['update', 'read', 'read'] }));
    assert.deepEqual({ ...made.attributes, created_at: undefined, updated_at: undefined }, { authorizable_id: board.id, authorizable_type: 'Dashboard', grantee_id: sre.id, grantee_type: 'Team', permissions: ['read', 'update'], created_at: undefined, updated_at: undefined });
    assert.deepEqual(ids(await send('GET', `/v1/authorizations?filter[authorizable_id]=${board.id}&filter[grantee_type]=Team`)), [made.id]);
    assert.deepEqual(ids(await send('GET', `/v1/authorizations?filter[authorizable_id]=${board.id}&filter[grantee_type]=User`)), []);
    const updated = await send('PUT', `/v1/authorizations/${made.id}`, doc('authorizations', { permissions: ['destroy', 'authorize'], grantee_id: 'ignored' }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual([updated.body.data.attributes.permissions, updated.body.data.attributes.grantee_id], [['authorize', 'destroy'], sre.id]);
    assert.equal((await send('DELETE', `/v1/authorizations/${made.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/authorizations/${made.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, made.id), ['authorization.created', 'authorization.updated', 'authorization.deleted']);
  });

  test('the types may be left out (as the Terraform provider may): Dashboard, and User for a user id', async () => {
    const board = await dashboard();
    const made = created(await grant({ authorizable_id: board.id, grantee_id: Number(await me()), permissions: ['read'] }));
    assert.deepEqual([made.attributes.authorizable_type, made.attributes.grantee_type, made.attributes.grantee_id], ['Dashboard', 'User', await me()]);
    // One grant per dashboard and grantee.
    const again = await grant({ authorizable_id: board.id, grantee_id: await me(), grantee_type: 'User', permissions: ['update'] });
    assert.equal(again.status, 422, JSON.stringify(again.body));
    assert.deepEqual(pointers(again), ['/data/attributes/grantee_id']);
  });

  test("unknown or another organization's dashboard, user or team: 422 naming the attribute, nothing written", async () => {
    const [board, theirs, theirTeam] = [await dashboard(), await dashboard(w.other.token), await team({}, w.other.token)];
    const theirUser = await me(w.other.token);
    for (const [attributes, pointer] of [
      [{ authorizable_id: theirs.id, grantee_id: await me() }, 'authorizable_id'],
      [{ authorizable_id: 'nope', grantee_id: await me() }, 'authorizable_id'],
      [{ authorizable_id: board.id, grantee_id: theirTeam.id, grantee_type: 'Team' }, 'grantee_id'],
      [{ authorizable_id: board.id, grantee_id: theirUser, grantee_type: 'User' }, 'grantee_id'],
      [{ authorizable_id: board.id, grantee_id: await me(), permissions: ['own'] }, 'permissions/0'],
      [{ authorizable_id: board.id, grantee_id: await me(), authorizable_type: 'Incident' }, 'authorizable_type'],
    ] as const) {
      const res = await grant({ permissions: ['read'], ...attributes });
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.deepEqual(pointers(res), [`/data/attributes/${pointer}`]);
    }
    assert.deepEqual(ids(await send('GET', `/v1/authorizations?filter[authorizable_id]=${board.id}`)), []);
  });

  test("deleting a dashboard deletes the authorizations on it", async () => {
    const board = await dashboard();
    const made = created(await grant({ authorizable_id: board.id, grantee_id: await me(), permissions: ['read'] }));
    assert.equal((await send('DELETE', `/v1/dashboards/${board.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/authorizations/${made.id}`)).status, 404);
  });

  const template = (attributes: Attributes) => send('POST', '/v1/catalog_checklist_templates', doc('catalog_checklist_templates', { name: unique('Readiness'), ...attributes }));
  const trigger = (id: string) => send('POST', `/v1/catalog_checklist_templates/${id}/trigger`);

  test('a template of a team\'s services: triggered, one checklist per service the team owns, its fields unchecked and its owners; a second trigger adds only new services', async () => {
    const sre = await team();
    const owner = Number(await me());
    const property = await w.create('/v1/services/properties', 'catalog_properties', { name: unique('Tier'), kind: 'text' });
    const owned = await w.create('/v1/services', 'services', { name: unique('Checkout'), owner_group_ids: [sre.id], owner_user_ids: [owner] });
    await w.create('/v1/services', 'services', { name: unique('Elsewhere') });
    const made = created(
      await template({
        catalog_type: 'Service',
        scope_type: 'Team',
        scope_id: sre.id,
        // As the Terraform provider sends blocks: every member, unset ones "".
        fields: [
          { field_source: 'builtin', field_key: 'description', catalog_property_id: '' },
          { field_source: 'custom', catalog_property_id: property.id, field_key: '' },
        ],
        owners: [{ type: 'field', id: 'owner_user_ids' }],
      }),
    );
    assert.deepEqual(made.attributes.fields, [
      { field_source: 'builtin', field_key: 'description', catalog_property_id: null },
      { field_source: 'custom', field_key: property.attributes.slug, catalog_property_id: property.id },
    ]);
    assert.match(made.attributes.slug, /^readiness-/);
    const res = await trigger(made.attributes.slug);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.data.length, 1);
    const [checklist] = res.body.data;
    assert.deepEqual([checklist.attributes.auditable_type, checklist.attributes.auditable_id, checklist.attributes.status, checklist.attributes.catalog_checklist_template_id], ['Service', owned.id, 'triggered', made.id]);
    assert.deepEqual(checklist.attributes.checklist_fields.map((f: Json) => [f.data.type, f.data.attributes.field_key, f.data.attributes.checked, f.data.attributes.catalog_entity_checklist_id]), [
      ['catalog_entity_checklist_fields', 'description', false, checklist.id],
      ['catalog_entity_checklist_fields', property.attributes.slug, false, checklist.id],
    ]);
    assert.deepEqual(checklist.attributes.checklist_owners.map((o: Json) => o.data.attributes.owner_user_id), [String(owner)]);
    const read = await send('GET', `/v1/catalog_entity_checklists/${checklist.id}`);
    assert.deepEqual(read.body.data, checklist);
    assert.deepEqual(await outboxTypes(w.api, checklist.id), ['catalog_entity_checklist.created']);
    // The open checklist stays; a service the team owns since gets one.
    const later = await w.create('/v1/services', 'services', { name: unique('Search'), owner_group_ids: [sre.id] });
    const again = await trigger(made.id);
    assert.deepEqual(again.body.data.map((c: Json) => c.attributes.auditable_id), [later.id]);
    assert.deepEqual(ids(await send('GET', `/v1/catalog_entity_checklists?filter[catalog_checklist_template_id]=${made.id}&filter[status]=triggered`)).sort(), [checklist.id, again.body.data[0].id].sort());
    // Deleting the template deletes its checklists.
    assert.equal((await send('DELETE', `/v1/catalog_checklist_templates/${made.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/catalog_entity_checklists/${checklist.id}`)).status, 404);
  });

  test("a custom catalog's template audits its entities; an update replaces fields and owners, its type and scope stay", async () => {
    const catalog = await w.create('/v1/catalogs', 'catalogs', { name: unique('Vendors') });
    const entity = await w.create(`/v1/catalogs/${catalog.id}/entities`, 'catalog_entities', { name: unique('Acme') });
    const made = created(await template({ catalog_type: 'Catalog', scope_type: 'Catalog', scope_id: catalog.id, fields: [{ field_source: 'builtin', field_key: 'name' }] }));
    const user = await me();
    const updated = await send('PUT', `/v1/catalog_checklist_templates/${made.id}`, doc('catalog_checklist_templates', { fields: [{ field_source: 'builtin', field_key: 'description' }], owners: [{ type: 'user', id: Number(user) }] }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual([updated.body.data.attributes.fields.map((f: Json) => f.field_key), updated.body.data.attributes.owners, updated.body.data.attributes.scope_id], [['description'], [{ id: user, type: 'user' }], catalog.id]);
    const res = await trigger(made.id);
    assert.deepEqual(res.body.data.map((c: Json) => [c.attributes.auditable_type, c.attributes.auditable_id, c.attributes.checklist_owners[0].data.attributes.owner_user_id]), [['CatalogEntity', entity.id, user]]);
  });

  test("a template's bad scope, fields and owners: 422 naming each, nothing written", async () => {
    const [theirTeam, theirCatalog] = [await team({}, w.other.token), await w.create('/v1/catalogs', 'catalogs', { name: unique('Theirs') }, w.other.token)];
    const teamProperty = await w.create('/v1/teams/properties', 'catalog_properties', { name: unique('On call'), kind: 'text' });
    const before = (await send('GET', '/v1/catalog_checklist_templates?page[size]=1')).body.meta.total_count;
    for (const [attributes, expected] of [
      [{ catalog_type: 'Service', scope_type: 'Team', scope_id: theirTeam.id }, ['scope_id']],
      [{ catalog_type: 'Catalog', scope_type: 'Catalog', scope_id: theirCatalog.id }, ['scope_id']],
      [{ catalog_type: 'Catalog', scope_type: 'Catalog' }, ['scope_id']],
      [{ catalog_type: 'Service', scope_type: 'Catalog' }, ['scope_type']],
      [
        {
          catalog_type: 'Service',
          scope_type: 'Team',
          fields: [{ field_source: 'builtin', field_key: 'shoe_size' }, { field_source: 'custom', catalog_property_id: teamProperty.id }, { field_source: 'builtin', field_key: 'name' }, { field_source: 'builtin', field_key: 'name' }],
          owners: [{ type: 'user', id: '999999' }, { type: 'field', id: 'nope' }],
        },
        ['fields/0/field_key', 'fields/1/catalog_property_id', 'fields/3', 'owners/0/id', 'owners/1/id'],
      ],
    ] as const) {
      const res = await template(attributes);
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.deepEqual(pointers(res), expected.map((p) => `/data/attributes/${p}`));
    }
    assert.equal((await send('GET', '/v1/catalog_checklist_templates?page[size]=1')).body.meta.total_count, before);
    // A team's own property is a Group template's custom field.
    created(await template({ catalog_type: 'Group', scope_type: 'Team', fields: [{ field_source: 'custom', catalog_property_id: teamProperty.id }] }));
  });

  test("another organization's template cannot be triggered (404) and its checklists are not listed", async () => {
    const theirs = created(await send('POST', '/v1/catalog_checklist_templates', doc('catalog_checklist_templates', { name: unique('Theirs'), catalog_type: 'Group', scope_type: 'Team' }), w.other.token));
    assert.equal((await trigger(theirs.id)).status, 404);
    await team({}, w.other.token);
    const made = await send('POST', `/v1/catalog_checklist_templates/${theirs.id}/trigger`, undefined, w.other.token);
    assert.ok(made.body.data.length >= 1);
    assert.deepEqual(ids(await send('GET', `/v1/catalog_entity_checklists?filter[catalog_checklist_template_id]=${theirs.id}`)), []);
    assert.equal((await send('GET', `/v1/catalog_entity_checklists/${made.body.data[0].id}`)).status, 404);
  });
});
