import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { passwordMatches } from '@taproot/identity';
import { useApiWorld } from './support/api-world';
import { type Attributes, created, errorCodes, ids, outboxEvents, outboxTypes, pointers, unique } from './support/json-api';

const doc = (attributes: Attributes) => ({ data: { type: 'status_pages', attributes } });

const w = useApiWorld();
const { send } = w;

const create = async (attributes: Attributes, token = w.org.token) => created(await send('POST', '/v1/status-pages', doc(attributes), token)) as { id: string; attributes: Attributes };
const catalog = async (type: 'services' | 'functionalities', token = w.org.token) =>
  created(await send('POST', `/v1/${type}`, { data: { type, attributes: { name: unique(type) } } }, token)) as { id: string };
const count = async () => ((await w.api.runtime.dataSource.query('SELECT count(*)::int AS n FROM status_pages WHERE organization_id = $1', [w.org.organizationId])) as { n: number }[])[0].n;

/** `/v1/status-pages` (docs/status-pages.md). */
describe('status pages', () => {
  test('a page with only a title answers every attribute of the reference, with the defaults', async () => {
    const title = unique('Acme Status');
    const page = await create({ title });
    assert.deepEqual(page.attributes, {
      title,
      slug: title.toLowerCase().replace(/ /g, '-'),
      description: null,
      public_title: null,
      public_description: null,
      header_color: '#0061F2',
      footer_color: '#1F2F41',
      allow_search_engine_index: true,
      authentication_enabled: false,
      authentication_method: 'none',
      authentication_password: null,
      saml_idp_cert: null,
      saml_idp_cert_fingerprint: null,
      saml_idp_sso_service_url: null,
      saml_idp_slo_service_url: null,
      saml_name_identifier_format: null,
      success_message: null,
      failure_message: null,
      website_url: null,
      website_privacy_url: null,
      website_support_url: null,
      ga_tracking_id: null,
      time_zone: 'Etc/UTC',
      public: false,
      enabled: true,
      show_uptime: true,
      show_uptime_last_days: 90,
      section_order: ['maintenance', 'system_status', 'incidents'],
      service_ids: [],
      functionality_ids: [],
      external_domain_names: [],
      cname_records: null,
      created_at: page.attributes.created_at,
      updated_at: page.attributes.updated_at,
    });
    assert.deepEqual((await outboxEvents(w.api, page.id)).map((e) => e.type), ['status_page.created']);
  });

  test('every writable attribute is stored as given; the password is write-only; output-only ones are ignored', async () => {
    const service = await catalog('services');
    const functionality = await catalog('functionalities');
    const page = await create({
      title: unique('Full'),
      description: 'Internal',
      public_title: 'Acme',
      public_description: 'How Acme is doing',
      header_color: '#112233',
      footer_color: '#abc',
      allow_search_engine_index: false,
      authentication_method: 'password',
      authentication_password: 's3cret',
      saml_idp_cert: 'CERT',
      saml_idp_sso_service_url: 'https://idp.example.test/sso',
      saml_idp_slo_service_url: 'https://idp.example.test/slo',
      saml_name_identifier_format: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      success_message: 'All good',
      failure_message: 'Trouble',
      website_url: 'https://acme.example.test',
      website_privacy_url: 'https://acme.example.test/privacy',
      website_support_url: 'https://acme.example.test/support',
      ga_tracking_id: 'G-123',
      time_zone: 'Europe/Paris',
      public: true,
      enabled: false,
      show_uptime: false,
      show_uptime_last_days: 30,
      section_order: ['incidents', 'system_status', 'maintenance'],
      service_ids: [service.id.toUpperCase()],
      functionality_ids: [functionality.id],
      external_domain_names: ['Status.Acme.example', 'status.acme.example'],
      cname_records: { 'status.acme.example': 'x' },
      saml_idp_cert_fingerprint: 'AA:BB',
    });
    const a = page.attributes;
    assert.deepEqual(
      [a.header_color, a.footer_color, a.authentication_method, a.authentication_enabled, a.authentication_password, a.time_zone, a.public, a.show_uptime_last_days, a.section_order],
      ['#112233', '#abc', 'password', true, '********', 'Europe/Paris', true, 30, ['incidents', 'system_status', 'maintenance']],
    );
    assert.deepEqual([a.service_ids, a.functionality_ids, a.external_domain_names], [[service.id], [functionality.id], ['status.acme.example']]);
    assert.deepEqual([a.cname_records, a.saml_idp_cert_fingerprint, a.saml_name_identifier_format], [null, null, 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent']);
    const [row] = (await w.api.runtime.dataSource.query('SELECT w.authentication_password AS w, r.authentication_password AS r FROM status_pages w JOIN status_pages_read r USING (id) WHERE id = $1', [page.id])) as { w: string; r: string }[];
    assert.equal(row.r, '********', 'only the write table holds the password');
    assert.ok(row.w.startsWith('scrypt$') && (await passwordMatches('s3cret', row.w)), `the write table holds its scrypt hash: ${row.w}`);
    assert.ok(!JSON.stringify(await outboxEvents(w.api, page.id)).includes('s3cret'));

    const got = await send('GET', `/v1/status-pages/${page.id}`);
    assert.deepEqual(got.body.data.attributes, a);
    assert.equal((await send('GET', `/v1/status-pages/${String(a.slug)}`)).body.data.id, page.id, 'a page is also named by its slug');

    const updated = await send('PUT', `/v1/status-pages/${page.id}`, doc({ title: 'Renamed page', authentication_method: 'none', section_order: null, service_ids: null }));
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    const u = updated.body.data.attributes;
    assert.deepEqual([u.title, u.authentication_enabled, u.section_order, u.service_ids, u.time_zone], ['Renamed page', false, ['maintenance', 'system_status', 'incidents'], [], 'Europe/Paris']);
  });

  test('bad values answer 422 naming each attribute, and nothing is written', async () => {
    const before = await count();
    const res = await send(
      'POST',
      '/v1/status-pages',
      doc({
        title: 'Bad',
        time_zone: 'Mars/Olympus',
        header_color: 'blue',
        show_uptime_last_days: 45,
        section_order: ['incidents', 'incidents'],
        external_domain_names: ['https://status.example.test'],
        authentication_method: 'password',
      }),
    );
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.deepEqual(pointers(res), ['/data/attributes/show_uptime_last_days']);
    const rules = await send('POST', '/v1/status-pages', doc({ title: 'Bad', time_zone: 'Mars/Olympus', header_color: 'blue', section_order: ['incidents', 'incidents'], external_domain_names: ['https://status.example.test'], authentication_method: 'password' }));
    assert.equal(rules.status, 422);
    assert.deepEqual(pointers(rules), [
      '/data/attributes/time_zone',
      '/data/attributes/header_color',
      '/data/attributes/section_order/1',
      '/data/attributes/external_domain_names/0',
      '/data/attributes/authentication_password',
    ]);
    assert.ok(rules.body.errors.every((e: { title: string }) => e.title === 'Invalid attribute'));
    assert.match(rules.body.errors[0].detail, /time_zone must be an IANA time zone/);
    const missing = await send('POST', '/v1/status-pages', doc({ description: 'no title' }));
    assert.deepEqual([missing.status, pointers(missing)], [422, ['/data/attributes/title']]);

    const foreign = await catalog('services', w.other.token);
    const unknown = await send('POST', '/v1/status-pages', doc({ title: 'Bad', service_ids: [foreign.id], functionality_ids: ['00000000-0000-4000-8000-000000000000'] }));
    assert.deepEqual([unknown.status, pointers(unknown)], [422, ['/data/attributes/service_ids/0', '/data/attributes/functionality_ids/0']]);
    assert.match(unknown.body.errors[0].detail, /is not a service of this organization/);
    assert.equal(await count(), before);

    const page = await create({ title: unique('Kept') });
    const badUpdate = await send('PUT', `/v1/status-pages/${page.id}`, doc({ authentication_method: 'password', time_zone: 'Nowhere' }));
    assert.deepEqual([badUpdate.status, pointers(badUpdate)], [422, ['/data/attributes/time_zone', '/data/attributes/authentication_password']]);
    assert.deepEqual(errorCodes(badUpdate)[1], '422/PASSWORD_REQUIRED/Invalid attribute');
    assert.equal((await send('GET', `/v1/status-pages/${page.id}`)).body.data.attributes.authentication_method, 'none');
  });

  test('lists filter by name (the title), slug, search and created_at, and sort by title', async () => {
    const tag = unique('zz').replace(' ', '');
    const b = await create({ title: `${tag} beta` });
    const a = await create({ title: `${tag} alpha`, description: 'needle' });
    assert.deepEqual(ids(await send('GET', `/v1/status-pages?filter[name]=${encodeURIComponent(`${tag} beta`)}`)), [b.id]);
    assert.deepEqual(ids(await send('GET', `/v1/status-pages?filter[slug]=${String(a.attributes.slug)}`)), [a.id]);
    assert.deepEqual(ids(await send('GET', `/v1/status-pages?filter[search]=${tag}&sort=title`)), [a.id, b.id]);
    assert.deepEqual(ids(await send('GET', `/v1/status-pages?filter[search]=needle`)), [a.id]);
    const since = encodeURIComponent(String(a.attributes.created_at));
    assert.deepEqual(ids(await send('GET', `/v1/status-pages?filter[search]=${tag}&filter[created_at][gte]=${since}`)), [a.id]);
  });

  test("another organization's page answers 404 on every route; the status_pages permission is checked", async () => {
    const page = await create({ title: unique('Private') });
    for (const [method, body] of [['GET'], ['PUT', doc({ title: 'x' })], ['DELETE']] as const) {
      assert.equal((await send(method, `/v1/status-pages/${page.id}`, body, w.other.token)).status, 404, method);
    }
    assert.ok(!ids(await send('GET', '/v1/status-pages?page[size]=100', undefined, w.other.token)).includes(page.id));
    const roles = await send('GET', '/v1/roles?filter[system_role]=observer');
    const observer = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: roles.body.data[0].id });
    assert.equal((await send('GET', `/v1/status-pages/${page.id}`, undefined, observer)).status, 200);
    const refused = await send('POST', '/v1/status-pages', doc({ title: 'x' }), observer);
    assert.deepEqual(errorCodes(refused), ['403/PERMISSION_DENIED/Forbidden']);

    const deleted = await send('DELETE', `/v1/status-pages/${page.id}`);
    assert.equal(deleted.status, 200);
    assert.equal((await send('GET', `/v1/status-pages/${page.id}`)).status, 404);
  });

  test('deleting a page deletes its components, component groups and announcements, each with its event', async () => {
    const page = await create({ title: unique('Short-lived') });
    const under = async (segment: string, type: string, attributes: Attributes) =>
      created(await send('POST', `/v1/status-pages/${page.id}/${segment}`, { data: { type, attributes } })) as { id: string };
    const group = await under('component-groups', 'status_page_component_groups', { name: unique('APIs') });
    const component = await under('components', 'status_page_components', { name: unique('Checkout'), status_page_component_group_id: group.id });
    const announcement = await under('announcements', 'status_page_announcements', { title: unique('Maintenance'), body: 'Tonight' });

    assert.equal((await send('DELETE', `/v1/status-pages/${page.id}`)).status, 200);
    for (const path of [`/v1/components/${component.id}`, `/v1/component-groups/${group.id}`, `/v1/announcements/${announcement.id}`]) {
      assert.equal((await send('GET', path)).status, 404, path);
    }
    for (const [id, type] of [[component.id, 'status_page_component'], [group.id, 'status_page_component_group'], [announcement.id, 'status_page_announcement']]) {
      assert.equal((await outboxTypes(w.api, id)).at(-1), `${type}.deleted`);
    }
  });
});
