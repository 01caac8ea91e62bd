import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { TestResponse } from '../src/testing';
import { useApiWorld } from './support/api-world';
import { created, doc, ids, outboxTypes, pointers, publicOnlyKey, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

/** Form fields, their options, placements, conditions and positions, form sets, custom forms, custom fields, and incidents' selections (docs/forms.md). */
describe('forms over HTTP', () => {
  const w = useApiWorld();
  const { send } = w;

  const make = async (path: string, type: string, attributes: Attributes, token = w.org.token): Promise<Json> => created(await send('POST', path, doc(type, attributes), token));
  const newField = (attributes: Attributes = {}, token = w.org.token) => make('/v1/form_fields', 'form_fields', { name: unique('Field'), kind: 'custom', ...attributes }, token);
  const newSet = (forms: string[] = ['web_new_incident_form'], token = w.org.token) => make('/v1/form_sets', 'form_sets', { name: unique('Set'), forms }, token);
  const newOption = (fieldId: string, attributes: Attributes = {}) => make(`/v1/form_fields/${fieldId}/options`, 'form_field_options', { value: unique('Option'), ...attributes });
  const newPlacement = (fieldId: string, setId: string, attributes: Attributes = {}) =>
    make(`/v1/form_fields/${fieldId}/placements`, 'form_field_placements', { form_set_id: setId, form: 'web_new_incident_form', ...attributes });
  const newIncident = (attributes: Attributes = {}, token = w.org.token) => make('/v1/incidents', 'incidents', { title: unique('Outage'), ...attributes }, token);
  const total = async (path: string) => (await send('GET', `${path}${path.includes('?') ? '&' : '?'}page[size]=100`)).body.meta.total_count;
  /** A 422 naming exactly `attribute`, and no record written at `list`. */
  const refused = async (pending: Promise<TestResponse>, attribute: string, list: string, count: number) => {
    const res = await pending;
    assert.deepEqual([res.status, pointers(res)], [422, [`/data/attributes/${attribute}`]], JSON.stringify(res.body));
    assert.match(res.body.errors[0].detail, new RegExp(attribute.split('/')[0]));
    assert.equal(await total(list), count);
  };

  test('a form field: created with its defaults, read by id and slug, listed with filters, changed and deleted', async () => {
    const field = await newField({ name: 'Customer Impact', kind: 'custom', input_kind: 'select', description: 'who felt it', shown: ['web_new_incident_form'] });
    assert.deepEqual(
      { slug: field.attributes.slug, value_kind: field.attributes.value_kind, enabled: field.attributes.enabled, required: field.attributes.required, resource_type: field.attributes.resource_type, position: typeof field.attributes.position },
      { slug: 'customer-impact', value_kind: 'inherit', enabled: true, required: [], resource_type: 'incident', position: 'number' },
    );
    assert.equal((await send('GET', '/v1/form_fields/customer-impact')).body.data.id, field.id);
    assert.deepEqual(ids(await send('GET', '/v1/form_fields?filter[search]=who%20felt')), [field.id]);
    assert.deepEqual(ids(await send('GET', '/v1/form_fields?filter[kind]=custom&filter[name]=Customer%20Impact')), [field.id]);
    const changed = await send('PUT', `/v1/form_fields/${field.id}`, doc('form_fields', { enabled: false, required: ['web_new_incident_form'] }));
    assert.deepEqual([changed.status, changed.body.data.attributes.enabled, changed.body.data.attributes.required], [200, false, ['web_new_incident_form']]);
    assert.deepEqual(ids(await send('GET', '/v1/form_fields?filter[enabled]=false')), [field.id]);
    assert.equal((await send('DELETE', `/v1/form_fields/${field.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/form_fields/${field.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, field.id), ['form_field.created', 'form_field.updated', 'form_field.deleted']);
  });

  test('form fields, placements, placement conditions and custom fields list by ascending position; sort=-position reverses', async () => {
    const own = await w.api.newOrganization();
    const mine = (method: string, path: string, body?: unknown) => send(method, path, body, own.token);
    const fields = [await newField({ position: 3 }, own.token), await newField({ position: 1 }, own.token), await newField({ position: 2 }, own.token)];
    assert.deepEqual(ids(await mine('GET', '/v1/form_fields')), [fields[1].id, fields[2].id, fields[0].id]);
    assert.deepEqual(ids(await mine('GET', '/v1/form_fields?sort=-position')), [fields[0].id, fields[2].id, fields[1].id]);
    const set = await newSet(['web_new_incident_form'], own.token);
    const place = (position: number) => make(`/v1/form_fields/${fields[0].id}/placements`, 'form_field_placements', { form_set_id: set.id, form: 'web_new_incident_form', position }, own.token);
    const placements = [await place(5), await place(4)];
    assert.deepEqual(ids(await mine('GET', `/v1/form_fields/${fields[0].id}/placements`)), [placements[1].id, placements[0].id]);
    assert.deepEqual(ids(await mine('GET', `/v1/form_fields/${fields[0].id}/placements?sort=-position`)), [placements[0].id, placements[1].id]);
    const condition = (position: number) =>
      make(`/v1/form_field_placements/${placements[0].id}/conditions`, 'form_field_placement_conditions', { conditioned: 'placement', form_field_id: fields[1].id, comparison: 'is_set', values: [], position }, own.token);
    const conditions = [await condition(2), await condition(1)];
    assert.deepEqual(ids(await mine('GET', `/v1/form_field_placements/${placements[0].id}/conditions`)), [conditions[1].id, conditions[0].id]);
    assert.deepEqual(ids(await mine('GET', `/v1/form_field_placements/${placements[0].id}/conditions?sort=-position`)), [conditions[0].id, conditions[1].id]);
    const custom = [await make('/v1/custom_fields', 'custom_fields', { label: unique('B'), position: 9 }, own.token), await make('/v1/custom_fields', 'custom_fields', { label: unique('A'), position: 8 }, own.token)];
    assert.deepEqual(ids(await mine('GET', '/v1/custom_fields')), [custom[1].id, custom[0].id]);
    assert.deepEqual(ids(await mine('GET', '/v1/custom_fields?sort=-position')), [custom[0].id, custom[1].id]);
    // Left out, a position goes last.
    const appended = await newField({}, own.token);
    assert.equal(appended.attributes.position, 4);
  });

  test('form field options: under their field, scoped to it, changed and deleted', async () => {
    const field = await newField({ input_kind: 'select' });
    const second = await newField({ input_kind: 'select' });
    const high = await newOption(field.id, { value: 'High', color: '#ff0000', default: true });
    const low = await newOption(field.id, { value: 'Low' });
    await newOption(second.id, { value: 'Elsewhere' });
    assert.deepEqual(
      [high.attributes.form_field_id, high.attributes.color, high.attributes.default, high.attributes.position, low.attributes.position, low.attributes.color, low.attributes.default],
      [field.id, '#ff0000', true, 1, 2, '#047BF8', false],
    );
    assert.deepEqual(ids(await send('GET', `/v1/form_fields/${field.id}/options`)), [high.id, low.id]);
    assert.deepEqual(ids(await send('GET', `/v1/form_fields/${field.id}/options?filter[value]=Low`)), [low.id]);
    const changed = await send('PUT', `/v1/form_field_options/${low.id}`, doc('form_field_options', { value: 'Lowest', position: 0 }));
    assert.deepEqual([changed.status, changed.body.data.attributes.value], [200, 'Lowest']);
    assert.deepEqual(ids(await send('GET', `/v1/form_fields/${field.id}/options`)), [low.id, high.id]);
    await refused(send('POST', `/v1/form_fields/${field.id}/options`, doc('form_field_options', { color: '#000000' })), 'value', `/v1/form_fields/${field.id}/options`, 2);
    assert.equal((await send('DELETE', `/v1/form_field_options/${high.id}`)).status, 200);
    assert.deepEqual(ids(await send('GET', `/v1/form_fields/${field.id}/options`)), [low.id]);
    assert.equal((await send('GET', '/v1/form_fields/00000000-0000-4000-8000-000000000000/options')).status, 404);
    const withOptions = await send('GET', `/v1/form_fields/${field.id}?include=options`);
    assert.deepEqual(withOptions.body.data.relationships.options.data.map((r: Json) => r.id), [low.id]);
    assert.deepEqual(withOptions.body.included.map((r: Json) => r.attributes.value), ['Lowest']);
  });

  test('form sets: forms are built-in or custom forms of the organization; conditions under the set', async () => {
    const form = await make('/v1/custom_forms', 'custom_forms', { name: 'Security Review', command: '/security' });
    assert.deepEqual([form.attributes.slug, form.attributes.enabled], ['security-review', true]);
    const set = await newSet(['web_new_incident_form', 'security-review']);
    assert.deepEqual([set.attributes.is_default, set.attributes.forms, set.attributes.slug.startsWith('set-')], [false, ['web_new_incident_form', 'security-review'], true]);
    const count = await total('/v1/form_sets');
    await refused(send('POST', '/v1/form_sets', doc('form_sets', { name: 'Bad', forms: ['web_new_incident_form', 'no-such-form'] })), 'forms/1', '/v1/form_sets', count);
    await refused(send('POST', '/v1/form_sets', doc('form_sets', { forms: [] })), 'name', '/v1/form_sets', count);
    const theirForm = await make('/v1/custom_forms', 'custom_forms', { name: unique('Theirs'), command: '/theirs' }, w.other.token);
    await refused(send('PUT', `/v1/form_sets/${set.id}`, doc('form_sets', { forms: [theirForm.attributes.slug] })), 'forms/0', '/v1/form_sets', count);
    const renamed = await send('PUT', `/v1/form_sets/${set.id}`, doc('form_sets', { name: 'Security', forms: ['security-review'] }));
    assert.deepEqual([renamed.status, renamed.body.data.attributes.forms], [200, ['security-review']]);
    assert.deepEqual(ids(await send('GET', `/v1/form_sets?filter[slug]=${set.attributes.slug}`)), [set.id]);

    const field = await newField();
    const condition = await make(`/v1/form_sets/${set.id}/conditions`, 'form_set_conditions', { form_field_id: field.id, comparison: 'equal', values: ['security'] });
    assert.deepEqual([condition.attributes.form_set_id, condition.attributes.values], [set.id, ['security']]);
    assert.deepEqual(ids(await send('GET', `/v1/form_sets/${set.id}/conditions?filter[form_field_id]=${field.id}`)), [condition.id]);
    const theirField = await newField({}, w.other.token);
    await refused(
      send('POST', `/v1/form_sets/${set.id}/conditions`, doc('form_set_conditions', { form_field_id: theirField.id, comparison: 'equal', values: ['x'] })),
      'form_field_id',
      `/v1/form_sets/${set.id}/conditions`,
      1,
    );
    const changed = await send('PUT', `/v1/form_set_conditions/${condition.id}`, doc('form_set_conditions', { values: ['security', 'privacy'] }));
    assert.deepEqual([changed.status, changed.body.data.attributes.values], [200, ['security', 'privacy']]);
    const customChanged = await send('PUT', `/v1/custom_forms/${form.id}`, doc('custom_forms', { command: '/sec', enabled: false }));
    assert.deepEqual([customChanged.body.data.attributes.command, customChanged.body.data.attributes.enabled], ['/sec', false]);
    assert.deepEqual(ids(await send('GET', '/v1/custom_forms?filter[command]=/sec')), [form.id]);
    assert.equal((await send('DELETE', `/v1/custom_forms/${form.id}`)).status, 200);
  });

  test('a placement names a form set of the organization and one of its forms, of the field\'s resource type', async () => {
    const field = await newField();
    const actionItemField = await newField({ resource_type: 'action_item' });
    assert.equal(actionItemField.attributes.resource_type, 'action_item');
    const set = await newSet(['web_new_incident_form', 'web_action_item_form']);
    const placement = await newPlacement(field.id, set.id, { required: true });
    assert.deepEqual(
      [placement.attributes.form_field_id, placement.attributes.form_set_id, placement.attributes.required, placement.attributes.non_editable, placement.attributes.placement_operator],
      [field.id, set.id, true, false, 'and'],
    );
    const list = `/v1/form_fields/${field.id}/placements`;
    // Across resource types: an incident field on an action item form, and the other way round.
    await refused(send('POST', list, doc('form_field_placements', { form_set_id: set.id, form: 'web_action_item_form' })), 'form', list, 1);
    await refused(
      send('POST', `/v1/form_fields/${actionItemField.id}/placements`, doc('form_field_placements', { form_set_id: set.id, form: 'web_new_incident_form' })),
      'form',
      `/v1/form_fields/${actionItemField.id}/placements`,
      0,
    );
    assert.ok(await newPlacement(actionItemField.id, set.id, { form: 'web_action_item_form' }));
    // The Terraform provider's `problem` field: stored, and of no form's type.
    const problemField = await newField({ resource_type: 'problem' });
    assert.equal(problemField.attributes.resource_type, 'problem');
    await refused(
      send('POST', `/v1/form_fields/${problemField.id}/placements`, doc('form_field_placements', { form_set_id: set.id, form: 'web_new_incident_form' })),
      'form',
      `/v1/form_fields/${problemField.id}/placements`,
      0,
    );
    await refused(send('POST', list, doc('form_field_placements', { form_set_id: set.id, form: 'slack_new_incident_form' })), 'form', list, 1);
    const theirSet = await newSet(['web_new_incident_form'], w.other.token);
    await refused(send('POST', list, doc('form_field_placements', { form_set_id: theirSet.id, form: 'web_new_incident_form' })), 'form_set_id', list, 1);
    await refused(send('POST', list, doc('form_field_placements', { form_set_id: set.id })), 'form', list, 1);
    const moved = await send('PUT', `/v1/form_field_placements/${placement.id}`, doc('form_field_placements', { form: 'web_action_item_form' }));
    assert.deepEqual([moved.status, pointers(moved)], [422, ['/data/attributes/form']]);
    const changed = await send('PUT', `/v1/form_field_placements/${placement.id}`, doc('form_field_placements', { non_editable: true, required_operator: 'or' }));
    assert.deepEqual([changed.status, changed.body.data.attributes.non_editable, changed.body.data.attributes.required_operator], [200, true, 'or']);
    assert.deepEqual(ids(await send('GET', `${list}?filter[form_field_id]=${field.id}`)), [placement.id]);
  });

  test('placement conditions name a field of the placed field\'s resource type', async () => {
    const field = await newField();
    const other_ = await newField();
    const actionItemField = await newField({ resource_type: 'action_item' });
    const placement = await newPlacement(field.id, (await newSet()).id);
    const list = `/v1/form_field_placements/${placement.id}/conditions`;
    const condition = await make(list, 'form_field_placement_conditions', { conditioned: 'required', form_field_id: other_.id, comparison: 'equal', values: ['yes'] });
    assert.deepEqual([condition.attributes.form_field_placement_id, condition.attributes.position, condition.attributes.comparison], [placement.id, 1, 'equal']);
    await refused(send('POST', list, doc('form_field_placement_conditions', { conditioned: 'required', form_field_id: actionItemField.id, comparison: 'equal', values: ['yes'] })), 'form_field_id', list, 1);
    await refused(send('POST', list, doc('form_field_placement_conditions', { conditioned: 'sometimes', form_field_id: other_.id, comparison: 'equal', values: [] })), 'conditioned', list, 1);
    const moved = await send('PUT', `/v1/form_field_placement_conditions/${condition.id}`, doc('form_field_placement_conditions', { form_field_id: actionItemField.id }));
    assert.deepEqual([moved.status, pointers(moved)], [422, ['/data/attributes/form_field_id']]);
    const changed = await send('PUT', `/v1/form_field_placement_conditions/${condition.id}`, doc('form_field_placement_conditions', { comparison: 'is_not_set', values: [] }));
    assert.deepEqual([changed.status, changed.body.data.attributes.comparison], [200, 'is_not_set']);
    assert.deepEqual(ids(await send('GET', `${list}?filter[form_field_id]=${other_.id}`)), [condition.id]);
    assert.equal((await send('DELETE', `/v1/form_field_placement_conditions/${condition.id}`)).status, 200);
    assert.deepEqual(ids(await send('GET', list)), []);
  });

  test('form field positions: on a built-in form of the field\'s resource type, filtered by form', async () => {
    const field = await newField();
    const list = `/v1/form_fields/${field.id}/positions`;
    const onWeb = await make(list, 'form_field_positions', { form: 'web_new_incident_form', position: 2 });
    const onSlack = await make(list, 'form_field_positions', { form: 'slack_new_incident_form', position: 1 });
    assert.deepEqual(ids(await send('GET', list)), [onSlack.id, onWeb.id]);
    assert.deepEqual(ids(await send('GET', `${list}?filter[form]=web_new_incident_form`)), [onWeb.id]);
    await refused(send('POST', list, doc('form_field_positions', { form: 'web_action_item_form', position: 3 })), 'form', list, 2);
    await refused(send('POST', list, doc('form_field_positions', { form: 'web_new_incident_form' })), 'position', list, 2);
    const changed = await send('PUT', `/v1/form_field_positions/${onWeb.id}`, doc('form_field_positions', { position: 0 }));
    assert.deepEqual([changed.status, changed.body.data.attributes.position], [200, 0]);
    assert.equal((await send('DELETE', `/v1/form_field_positions/${onSlack.id}`)).status, 200);
    assert.deepEqual(ids(await send('GET', list)), [onWeb.id]);
  });

  test('deleting a form field deletes its options, placements, positions, and the conditions and selections naming it, each with its event', async () => {
    const field = await newField();
    const watcher = await newField();
    const option = await newOption(field.id);
    const set = await newSet();
    const placement = await newPlacement(field.id, set.id);
    const condition = await make(`/v1/form_field_placements/${placement.id}/conditions`, 'form_field_placement_conditions', { conditioned: 'placement', form_field_id: watcher.id, comparison: 'is_set', values: [] });
    const position = await make(`/v1/form_fields/${field.id}/positions`, 'form_field_positions', { form: 'web_new_incident_form', position: 1 });
    const otherPlacement = await newPlacement(watcher.id, set.id);
    const naming = await make(`/v1/form_field_placements/${otherPlacement.id}/conditions`, 'form_field_placement_conditions', { conditioned: 'placement', form_field_id: field.id, comparison: 'is_set', values: [] });
    const setCondition = await make(`/v1/form_sets/${set.id}/conditions`, 'form_set_conditions', { form_field_id: field.id, comparison: 'equal', values: ['x'] });
    const incident = await newIncident();
    const selection = await make(`/v1/incidents/${incident.id}/form_field_selections`, 'incident_form_field_selections', { form_field_id: field.id, selected_option_ids: [option.id] });
    assert.equal((await send('DELETE', `/v1/form_fields/${field.id}`)).status, 200);
    for (const path of [
      `/v1/form_field_options/${option.id}`,
      `/v1/form_field_placements/${placement.id}`,
      `/v1/form_field_placement_conditions/${condition.id}`,
      `/v1/form_field_positions/${position.id}`,
      `/v1/form_field_placement_conditions/${naming.id}`,
      `/v1/form_set_conditions/${setCondition.id}`,
      `/v1/incident_form_field_selections/${selection.id}`,
    ]) {
      assert.equal((await send('GET', path)).status, 404, path);
    }
    assert.equal((await send('GET', `/v1/form_field_placements/${otherPlacement.id}`)).status, 200);
    assert.deepEqual(await outboxTypes(w.api, condition.id), ['form_field_placement_condition.created', 'form_field_placement_condition.deleted']);
    assert.deepEqual(await outboxTypes(w.api, selection.id), ['incident_form_field_selection.created', 'incident_form_field_selection.deleted']);
  });

  test('deleting a form set deletes its conditions and the placements in it', async () => {
    const field = await newField();
    const set = await newSet();
    const kept = await newPlacement(field.id, (await newSet()).id);
    const placement = await newPlacement(field.id, set.id);
    const condition = await make(`/v1/form_sets/${set.id}/conditions`, 'form_set_conditions', { form_field_id: field.id, comparison: 'equal', values: ['x'] });
    assert.equal((await send('DELETE', `/v1/form_sets/${set.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/form_field_placements/${placement.id}`)).status, 404);
    assert.equal((await send('GET', `/v1/form_set_conditions/${condition.id}`)).status, 404);
    assert.deepEqual(ids(await send('GET', `/v1/form_fields/${field.id}/placements`)), [kept.id]);
    assert.deepEqual(await outboxTypes(w.api, placement.id), ['form_field_placement.created', 'form_field_placement.deleted']);
  });

  test('the deprecated custom fields and their options', async () => {
    const field = await make('/v1/custom_fields', 'custom_fields', { label: 'Root Cause Area', shown: ['incident_form'], required: ['incident_form'] });
    assert.deepEqual(
      [field.attributes.slug, field.attributes.kind, field.attributes.enabled, field.attributes.resource_type, field.attributes.default],
      ['root-cause-area', 'text', true, 'incident', null],
    );
    assert.deepEqual(ids(await send('GET', '/v1/custom_fields?filter[label]=Root%20Cause%20Area')), [field.id]);
    assert.equal((await send('GET', '/v1/custom_fields/root-cause-area')).body.data.id, field.id);
    const count = await total('/v1/custom_fields');
    await refused(send('POST', '/v1/custom_fields', doc('custom_fields', { label: 'Bad', shown: ['nowhere'] })), 'shown/0', '/v1/custom_fields', count);
    await refused(send('POST', '/v1/custom_fields', doc('custom_fields', { shown: [] })), 'label', '/v1/custom_fields', count);
    const changed = await send('PUT', `/v1/custom_fields/${field.id}`, doc('custom_fields', { default: 'n/a', required: null }));
    assert.deepEqual([changed.status, changed.body.data.attributes.default, changed.body.data.attributes.required], [200, 'n/a', null]);
    const option = await make(`/v1/custom_fields/${field.id}/options`, 'custom_field_options', { value: 'Database', color: '#123456' });
    assert.deepEqual([option.attributes.custom_field_id, option.attributes.position, option.attributes.default], [field.id, 1, false]);
    assert.deepEqual(ids(await send('GET', `/v1/custom_fields/${field.id}/options?filter[color]=%23123456`)), [option.id]);
    assert.deepEqual((await send('GET', `/v1/custom_fields?include=options&filter[slug]=root-cause-area`)).body.included.map((r: Json) => r.id), [option.id]);
    const renamed = await send('PUT', `/v1/custom_field_options/${option.id}`, doc('custom_field_options', { value: 'DB' }));
    assert.equal(renamed.body.data.attributes.value, 'DB');
    assert.equal((await send('DELETE', `/v1/custom_fields/${field.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/custom_field_options/${option.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, option.id), ['custom_field_option.created', 'custom_field_option.updated', 'custom_field_option.deleted']);
    const openapi = (await send('GET', '/v1/openapi.json')).body;
    assert.equal(openapi.paths['/v1/custom_fields'].get.deprecated, true);
    assert.equal(openapi.paths['/v1/custom_field_options/{id}'].put.deprecated, true);
    assert.equal(openapi.paths['/v1/form_fields'].get.deprecated, undefined);
  });

  test('an incident\'s form field selections: the field and what they select are checked; listed under the incident', async () => {
    const field = await newField({ input_kind: 'multi_select' });
    const option = await newOption(field.id);
    const foreignOption = await newOption((await newField()).id);
    const service = await make('/v1/services', 'services', { name: unique('Checkout') });
    const incident = await newIncident();
    const second = await newIncident();
    const list = `/v1/incidents/${incident.id}/form_field_selections`;
    const selection = await make(list, 'incident_form_field_selections', { form_field_id: field.id, selected_option_ids: [option.id], selected_service_ids: [service.id], selected_catalog_entity_ids: ['as-given'] });
    assert.deepEqual(
      [selection.attributes.incident_id, selection.attributes.form_field_id, selection.attributes.selected_option_ids, selection.attributes.selected_user_ids, selection.attributes.value],
      [incident.id, field.id, [option.id], [], null],
    );
    await make(`/v1/incidents/${second.id}/form_field_selections`, 'incident_form_field_selections', { form_field_id: field.id, value: 'elsewhere' });
    assert.deepEqual(ids(await send('GET', list)), [selection.id]);
    await refused(send('POST', list, doc('incident_form_field_selections', { form_field_id: field.id, selected_option_ids: [foreignOption.id] })), 'selected_option_ids/0', list, 1);
    await refused(send('POST', list, doc('incident_form_field_selections', { form_field_id: field.id, selected_service_ids: ['00000000-0000-4000-8000-000000000000'] })), 'selected_service_ids/0', list, 1);
    await refused(send('POST', list, doc('incident_form_field_selections', { value: 'no field' })), 'form_field_id', list, 1);
    const actionItemField = await newField({ resource_type: 'action_item' });
    await refused(send('POST', list, doc('incident_form_field_selections', { form_field_id: actionItemField.id, value: 'x' })), 'form_field_id', list, 1);
    const changed = await send('PUT', `/v1/incident_form_field_selections/${selection.id}`, doc('incident_form_field_selections', { value: 'EU customers', selected_option_ids: [] }));
    assert.deepEqual([changed.status, changed.body.data.attributes.value, changed.body.data.attributes.selected_option_ids], [200, 'EU customers', []]);
    const wrong = await send('PUT', `/v1/incident_form_field_selections/${selection.id}`, doc('incident_form_field_selections', { selected_option_ids: [foreignOption.id] }));
    assert.deepEqual([wrong.status, pointers(wrong)], [422, ['/data/attributes/selected_option_ids/0']]);
    assert.equal((await send('DELETE', `/v1/incident_form_field_selections/${selection.id}`)).status, 200);
    assert.deepEqual(ids(await send('GET', list)), []);
  });

  test('an incident\'s custom field selections, and an incident\'s delete deleting its selections', async () => {
    const field = await make('/v1/custom_fields', 'custom_fields', { label: unique('Region'), kind: 'select' });
    const option = await make(`/v1/custom_fields/${field.id}/options`, 'custom_field_options', { value: 'EU' });
    const otherField = await make('/v1/custom_fields', 'custom_fields', { label: unique('Other') });
    const foreign = await make(`/v1/custom_fields/${otherField.id}/options`, 'custom_field_options', { value: 'US' });
    const incident = await newIncident();
    const list = `/v1/incidents/${incident.id}/custom_field_selections`;
    const selection = await make(list, 'incident_custom_field_selections', { custom_field_id: field.id, value: null, selected_option_ids: [option.id] });
    assert.deepEqual([selection.attributes.incident_id, selection.attributes.custom_field_id, selection.attributes.selected_option_ids], [incident.id, field.id, [option.id]]);
    assert.deepEqual(ids(await send('GET', list)), [selection.id]);
    await refused(send('POST', list, doc('incident_custom_field_selections', { custom_field_id: field.id, value: null, selected_option_ids: [foreign.id] })), 'selected_option_ids/0', list, 1);
    await refused(send('POST', list, doc('incident_custom_field_selections', { custom_field_id: '00000000-0000-4000-8000-000000000000', value: 'x' })), 'custom_field_id', list, 1);
    const changed = await send('PUT', `/v1/incident_custom_field_selections/${selection.id}`, doc('incident_custom_field_selections', { value: 'Europe' }));
    assert.deepEqual([changed.status, changed.body.data.attributes.value], [200, 'Europe']);

    const formSelection = await make(`/v1/incidents/${incident.id}/form_field_selections`, 'incident_form_field_selections', { form_field_id: (await newField()).id, value: 'v' });
    assert.equal((await send('DELETE', `/v1/incidents/${incident.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/incident_custom_field_selections/${selection.id}`)).status, 404);
    assert.equal((await send('GET', `/v1/incident_form_field_selections/${formSelection.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, selection.id), ['incident_custom_field_selection.created', 'incident_custom_field_selection.updated', 'incident_custom_field_selection.deleted']);
  });

  test('a private incident\'s selections answer 404 to a caller who may not see it', async () => {
    const secret = await newIncident({ private: true });
    const field = await newField();
    const selection = await make(`/v1/incidents/${secret.id}/form_field_selections`, 'incident_form_field_selections', { form_field_id: field.id, value: 'hidden' });
    const key = await publicOnlyKey(w.api, w.org);
    assert.equal((await send('GET', `/v1/incidents/${secret.id}/form_field_selections`, undefined, key)).status, 404);
    assert.equal((await send('GET', `/v1/incident_form_field_selections/${selection.id}`, undefined, key)).status, 404);
    assert.equal((await send('GET', `/v1/incident_form_field_selections/${selection.id}`)).status, 200);
  });

  test('another organization\'s form records answer 404 and are never listed', async () => {
    const field = await newField();
    const option = await newOption(field.id);
    const set = await newSet();
    const placement = await newPlacement(field.id, set.id);
    const custom = await make('/v1/custom_fields', 'custom_fields', { label: unique('Mine') });
    const form = await make('/v1/custom_forms', 'custom_forms', { name: unique('Mine'), command: '/mine' });
    const incident = await newIncident();
    const selection = await make(`/v1/incidents/${incident.id}/form_field_selections`, 'incident_form_field_selections', { form_field_id: field.id, value: 'x' });
    const theirs = (method: string, path: string, body?: unknown) => send(method, path, body, w.other.token);
    for (const path of [
      `/v1/form_fields/${field.id}`,
      `/v1/form_field_options/${option.id}`,
      `/v1/form_sets/${set.id}`,
      `/v1/form_field_placements/${placement.id}`,
      `/v1/custom_fields/${custom.id}`,
      `/v1/custom_forms/${form.id}`,
      `/v1/incident_form_field_selections/${selection.id}`,
      `/v1/form_fields/${field.id}/options`,
      `/v1/form_fields/${field.id}/placements`,
      `/v1/form_field_placements/${placement.id}/conditions`,
      `/v1/incidents/${incident.id}/form_field_selections`,
    ]) {
      assert.equal((await theirs('GET', path)).status, 404, path);
    }
    assert.equal((await theirs('POST', `/v1/form_fields/${field.id}/options`, doc('form_field_options', { value: 'Intruder' }))).status, 404);
    assert.equal((await theirs('PUT', `/v1/form_fields/${field.id}`, doc('form_fields', { name: 'Taken' }))).status, 404);
    assert.equal((await theirs('DELETE', `/v1/form_sets/${set.id}`)).status, 404);
    for (const path of ['/v1/form_fields', '/v1/form_sets', '/v1/custom_fields', '/v1/custom_forms']) {
      const listed = ids(await theirs('GET', `${path}?page[size]=100`));
      assert.ok(![field.id, set.id, custom.id, form.id].some((id) => listed.includes(id)), path);
    }
    assert.equal((await send('GET', `/v1/form_fields/${field.id}`)).body.data.attributes.name, field.attributes.name);
  });
});
