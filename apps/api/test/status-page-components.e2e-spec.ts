import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useApiWorld } from './support/api-world';
import { newStatusPage } from './support/status-pages';
import { type Attributes, doc, errorCodes, ids, outboxTypes, pointers, unique } from './support/json-api';

describe('status page components and component groups', () => {
  const w = useApiWorld();
  const { send } = w;

  const newPage = async (token?: string) => (await newStatusPage(w, {}, token)).id;
  const newGroup = (page: string, attributes: Attributes = {}, token = w.org.token) =>
    w.create(`/v1/status-pages/${page}/component-groups`, 'status_page_component_groups', { name: unique('APIs'), ...attributes }, token);
  const newComponent = (page: string, attributes: Attributes = {}, token = w.org.token) =>
    w.create(`/v1/status-pages/${page}/components`, 'status_page_components', { name: unique('Checkout'), ...attributes }, token);
  const catalog = async (path: string, type: string, token = w.org.token) => (await w.create(path, type, { name: unique(type) }, token)).id as string;

  test('a component is created with its defaults, listed by position under its page, read, changed and deleted at /v1/components/{id}', async () => {
    const page = await newPage();
    const service = await catalog('/v1/services', 'services');
    const functionality = await catalog('/v1/functionalities', 'functionalities');
    const first = await newComponent(page, { name: 'Checkout', service_ids: [service.toUpperCase()], functionality_ids: [functionality] });
    assert.equal(first.type, 'status_page_components');
    assert.deepEqual(first.attributes, {
      status_page_id: page,
      name: 'Checkout',
      description: null,
      status: 'operational',
      position: 1,
      status_page_component_group_id: null,
      service_ids: [service],
      functionality_ids: [functionality],
      created_at: first.attributes.created_at,
      updated_at: first.attributes.updated_at,
    });
    const second = await newComponent(page, { status: 'major_outage', description: 'Card payments' });
    assert.equal(second.attributes.position, 2, 'left out, a component goes last among its page’s');
    const top = await newComponent(page, { position: 0 });
    assert.deepEqual(ids(await send('GET', `/v1/status-pages/${page}/components`)), [top.id, first.id, second.id]);
    assert.deepEqual(ids(await send('GET', `/v1/status-pages/${page}/components?filter[status]=major_outage`)), [second.id]);
    assert.deepEqual((await send('GET', `/v1/components/${first.id}`)).body.data, first);

    const group = await newGroup(page);
    const changed = await send('PUT', `/v1/components/${first.id}`, doc('status_page_components', { status: 'partial_outage', status_page_component_group_id: group.id, service_ids: [] }));
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual(changed.body.data.attributes, { ...first.attributes, status: 'partial_outage', status_page_component_group_id: group.id, service_ids: [], updated_at: changed.body.data.attributes.updated_at });
    assert.deepEqual(ids(await send('GET', `/v1/status-pages/${page}/components?filter[status_page_component_group_id]=${group.id}`)), [first.id]);

    assert.deepEqual((await send('DELETE', `/v1/components/${first.id}`)).body.data, changed.body.data);
    assert.equal((await send('GET', `/v1/components/${first.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, first.id), ['status_page_component.created', 'status_page_component.updated', 'status_page_component.deleted']);
  });

  test('a component names an enabled status, a group of its own page and the organization’s services and functionalities: one 422 per attribute, nothing written', async () => {
    const page = await newPage();
    const otherPageGroup = await newGroup(await newPage());
    const theirService = await catalog('/v1/services', 'services', w.other.token);
    const theirFunctionality = await catalog('/v1/functionalities', 'functionalities', w.other.token);
    const refused = await send(
      'POST',
      `/v1/status-pages/${page}/components`,
      doc('status_page_components', { name: 'Checkout', status: 'on_fire', status_page_component_group_id: otherPageGroup.id, service_ids: [theirService], functionality_ids: [theirFunctionality] }),
    );
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.deepEqual(pointers(refused).sort(), ['/data/attributes/status', '/data/attributes/status_page_component_group_id']);
    assert.match(refused.body.errors[0].detail, /on_fire is not the slug of an enabled status/);
    const catalogRefused = await send('POST', `/v1/status-pages/${page}/components`, doc('status_page_components', { name: 'Checkout', service_ids: [theirService], functionality_ids: [theirFunctionality] }));
    assert.deepEqual(pointers(catalogRefused), ['/data/attributes/service_ids/0', '/data/attributes/functionality_ids/0']);
    assert.match(catalogRefused.body.errors[0].detail, new RegExp(`service_ids\\[0\\]: ${theirService} is not a service of this organization`));
    const nameless = await send('POST', `/v1/status-pages/${page}/components`, doc('status_page_components', { description: 'no name' }));
    assert.deepEqual(pointers(nameless), ['/data/attributes/name']);
    assert.deepEqual(ids(await send('GET', `/v1/status-pages/${page}/components`)), []);

    const component = await newComponent(page);
    const update = await send('PUT', `/v1/components/${component.id}`, doc('status_page_components', { status: 'nope' }));
    assert.deepEqual([update.status, pointers(update)], [422, ['/data/attributes/status']]);
    assert.equal((await send('GET', `/v1/components/${component.id}`)).body.data.attributes.status, 'operational');
  });

  test('a group has its defaults and order, and is refused deletion (422) while components are in it', async () => {
    const page = await newPage();
    const group = await newGroup(page, { name: 'APIs' });
    assert.equal(group.type, 'status_page_component_groups');
    assert.deepEqual(group.attributes, {
      status_page_id: page,
      name: 'APIs',
      description: null,
      position: 1,
      collapsed_by_default: false,
      created_at: group.attributes.created_at,
      updated_at: group.attributes.updated_at,
    });
    const first = await newGroup(page, { position: 0, collapsed_by_default: true });
    assert.deepEqual(ids(await send('GET', `/v1/status-pages/${page}/component-groups`)), [first.id, group.id]);
    const renamed = await send('PUT', `/v1/component-groups/${group.id}`, doc('status_page_component_groups', { name: 'Public APIs', collapsed_by_default: true }));
    assert.deepEqual([renamed.status, renamed.body.data.attributes.name, renamed.body.data.attributes.collapsed_by_default], [200, 'Public APIs', true]);
    assert.deepEqual(pointers(await send('PUT', `/v1/component-groups/${group.id}`, doc('status_page_component_groups', { name: '' }))), ['/data/attributes/name']);

    const member = await newComponent(page, { status_page_component_group_id: group.id });
    const refused = await send('DELETE', `/v1/component-groups/${group.id}`);
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.deepEqual(errorCodes(refused), ['422/COMPONENT_GROUP_IN_USE/Component group in use']);
    assert.match(refused.body.errors[0].detail, /still holds 1 component/);
    assert.equal((await send('GET', `/v1/component-groups/${group.id}`)).status, 200);

    assert.equal((await send('PUT', `/v1/components/${member.id}`, doc('status_page_components', { status_page_component_group_id: null }))).status, 200);
    assert.equal((await send('DELETE', `/v1/component-groups/${group.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/component-groups/${group.id}`)).status, 404);
  });

  test('another organization’s pages, components and groups answer 404', async () => {
    const theirPage = await newPage(w.other.token);
    const theirGroup = await newGroup(theirPage, {}, w.other.token);
    const theirComponent = await newComponent(theirPage, {}, w.other.token);
    const attempts: [string, string, unknown?][] = [
      ['GET', `/v1/status-pages/${theirPage}/components`],
      ['POST', `/v1/status-pages/${theirPage}/components`, doc('status_page_components', { name: 'x' })],
      ['GET', `/v1/status-pages/${theirPage}/component-groups`],
      ['POST', `/v1/status-pages/${theirPage}/component-groups`, doc('status_page_component_groups', { name: 'x' })],
      ['GET', `/v1/components/${theirComponent.id}`],
      ['PUT', `/v1/components/${theirComponent.id}`, doc('status_page_components', { name: 'x' })],
      ['DELETE', `/v1/components/${theirComponent.id}`],
      ['GET', `/v1/component-groups/${theirGroup.id}`],
      ['PUT', `/v1/component-groups/${theirGroup.id}`, doc('status_page_component_groups', { name: 'x' })],
      ['DELETE', `/v1/component-groups/${theirGroup.id}`],
      ['GET', `/v1/status-pages/${randomUUID()}/components`],
    ];
    for (const [method, path, body] of attempts) {
      const res = await send(method, path, body);
      assert.equal(res.status, 404, `${method} ${path}: ${JSON.stringify(res.body)}`);
    }
    // A group of another organization is no group of my page.
    const mine = await newPage();
    const refused = await send('POST', `/v1/status-pages/${mine}/components`, doc('status_page_components', { name: 'x', status_page_component_group_id: theirGroup.id }));
    assert.deepEqual([refused.status, pointers(refused)], [422, ['/data/attributes/status_page_component_group_id']]);
    assert.equal((await send('GET', `/v1/components/${theirComponent.id}`, undefined, w.other.token)).body.data.attributes.name, theirComponent.attributes.name);
  });
});
