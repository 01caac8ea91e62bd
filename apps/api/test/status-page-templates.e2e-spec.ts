import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { newStatusPage } from './support/status-pages';
import { type Attributes, created, errorCodes, ids, outboxEvents, pointers } from './support/json-api';

const doc = (attributes: Attributes) => ({ data: { type: 'status_page_templates', attributes } });

const w = useApiWorld();
const { send } = w;

const page = (token?: string) => newStatusPage(w, {}, token);
const template = async (pageId: string, attributes: Attributes) => created(await send('POST', `/v1/status-pages/${pageId}/templates`, doc(attributes))) as { id: string; attributes: Attributes };

/** `/v1/status-pages/{status_page_id}/templates` and `/v1/templates/{id}` (docs/status-pages.md, "Templates"). */
describe('status page templates', () => {
  test('created under a page with the defaults, listed in position order, read, changed and deleted at /v1/templates', async () => {
    const { id: pageId } = await page();
    const first = await template(pageId, { title: 'Investigating', body: 'We are looking into it' });
    assert.deepEqual(first.attributes, {
      status_page_id: pageId,
      title: 'Investigating',
      body: 'We are looking into it',
      update_title: null,
      update_status: null,
      kind: 'normal',
      should_notify_subscribers: false,
      enabled: true,
      position: 1,
      created_at: first.attributes.created_at,
      updated_at: first.attributes.updated_at,
    });
    const second = await template(pageId, { title: 'Maintenance', body: 'Planned work', kind: 'scheduled', update_status: 'scheduled', update_title: 'Planned', should_notify_subscribers: true, enabled: false, position: 0 });
    assert.deepEqual([second.attributes.position, second.attributes.update_status, second.attributes.should_notify_subscribers, second.attributes.enabled], [0, 'scheduled', true, false]);
    assert.deepEqual(ids(await send('GET', `/v1/status-pages/${pageId}/templates`)), [second.id, first.id]);
    assert.deepEqual(ids(await send('GET', `/v1/status-pages/${(await page()).id}/templates`)), [], "another page's list is its own");

    const changed = await send('PUT', `/v1/templates/${first.id}`, doc({ update_status: 'identified', status_page_id: '00000000-0000-4000-8000-000000000000' }));
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.deepEqual([changed.body.data.attributes.update_status, changed.body.data.attributes.status_page_id], ['identified', pageId], 'a template stays under its page');
    assert.deepEqual((await send('GET', `/v1/templates/${first.id}`)).body.data, changed.body.data);
    assert.equal((await send('DELETE', `/v1/templates/${first.id}`)).status, 200);
    assert.deepEqual((await outboxEvents(w.api, first.id)).map((e) => e.type), ['status_page_template.created', 'status_page_template.updated', 'status_page_template.deleted']);

    // Deleting the page deletes its templates, each with its event.
    assert.equal((await send('DELETE', `/v1/status-pages/${pageId}`)).status, 200);
    assert.equal((await send('GET', `/v1/templates/${second.id}`)).status, 404);
    assert.deepEqual((await outboxEvents(w.api, second.id)).map((e) => e.type), ['status_page_template.created', 'status_page_template.deleted']);
  });

  test("bad input answers 422 naming the attribute; an update status must be one of the template's kind", async () => {
    const { id: pageId } = await page();
    const missing = await send('POST', `/v1/status-pages/${pageId}/templates`, doc({ kind: 'urgent' }));
    assert.equal(missing.status, 422);
    assert.deepEqual(new Set(pointers(missing)), new Set(['/data/attributes/title', '/data/attributes/body', '/data/attributes/kind']));
    const wrongKind = await send('POST', `/v1/status-pages/${pageId}/templates`, doc({ title: 't', body: 'b', kind: 'scheduled', update_status: 'investigating' }));
    assert.deepEqual([wrongKind.status, pointers(wrongKind), errorCodes(wrongKind)], [422, ['/data/attributes/update_status'], ['422/STATUS_NOT_OF_KIND/Invalid attribute']]);
    assert.match(wrongKind.body.errors[0].detail, /scheduled, in_progress, completed/);
    const normal = await template(pageId, { title: 't', body: 'b', update_status: 'monitoring' });
    const switched = await send('PUT', `/v1/templates/${normal.id}`, doc({ kind: 'scheduled' }));
    assert.deepEqual([switched.status, pointers(switched)], [422, ['/data/attributes/update_status']]);
    assert.deepEqual(ids(await send('GET', `/v1/status-pages/${pageId}/templates`)), [normal.id], 'nothing else was written');
  });

  test('the bare template, as the reference declares the body (its own MCP server sends it), is taken for a create and an update', async () => {
    const { id: pageId } = await page();
    // rootly-mcp-server's create_status_page_template and update_status_page_template: the template's members, its own timestamps among them.
    const at = '2026-11-26T16:00:00Z';
    const made = await send('POST', `/v1/status-pages/${pageId}/templates`, { status_page_id: pageId, title: 'Investigating', body: 'Slow checkouts', update_status: 'investigating', created_at: at, updated_at: at });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual([made.body.data.attributes.status_page_id, made.body.data.attributes.title, made.body.data.attributes.update_status], [pageId, 'Investigating', 'investigating']);
    assert.notEqual(made.body.data.attributes.created_at, at, 'the server keeps its own timestamps');
    const changed = await send('PUT', `/v1/templates/${made.body.data.id}`, { status_page_id: pageId, title: 'Investigating', body: 'Checkouts are slow; we are on it', created_at: at, updated_at: at });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.data.attributes.body, 'Checkouts are slow; we are on it');
    // A bare body is read as the attributes: what they lack or get wrong is named as in a document.
    const bad = await send('POST', `/v1/status-pages/${pageId}/templates`, { title: 'No body', kind: 'urgent' });
    assert.deepEqual([bad.status, new Set(pointers(bad))], [422, new Set(['/data/attributes/body', '/data/attributes/kind'])]);
  });

  test("another organization's page and templates answer 404", async () => {
    const { id: pageId } = await page();
    const mine = await template(pageId, { title: 't', body: 'b' });
    assert.equal((await send('GET', `/v1/status-pages/${pageId}/templates`, undefined, w.other.token)).status, 404);
    assert.equal((await send('POST', `/v1/status-pages/${pageId}/templates`, doc({ title: 't', body: 'b' }), w.other.token)).status, 404);
    for (const [method, body] of [['GET'], ['PUT', doc({ title: 'x' })], ['DELETE']] as const) {
      assert.equal((await send(method, `/v1/templates/${mine.id}`, body, w.other.token)).status, 404, method);
    }
    assert.equal((await send('GET', `/v1/templates/${mine.id}`)).body.data.attributes.title, 't');
  });
});
