import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { created, doc, ids, outboxTypes, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

/** Retrospective processes, their steps, groups and group steps, and post-mortem templates (docs/retrospectives.md). */
describe('retrospectives over HTTP', () => {
  const w = useApiWorld();
  const { send } = w;

  const newProcess = async (attributes: Attributes = {}, token = w.org.token): Promise<Json> =>
    created(await send('POST', '/v1/retrospective_processes', doc('retrospective_processes', { name: unique('Process'), copy_from: 'starter_template', ...attributes }), token));
  const newStep = async (processId: string, attributes: Attributes = {}): Promise<Json> =>
    created(await send('POST', `/v1/retrospective_processes/${processId}/retrospective_steps`, doc('retrospective_steps', { title: unique('Step'), ...attributes })));
  const newSubStatus = async (): Promise<string> => created(await send('POST', '/v1/sub_statuses', doc('sub_statuses', { name: unique('Reviewing'), parent_status: 'retrospective' }))).id;
  const newGroup = async (processId: string, attributes: Attributes = {}): Promise<Json> =>
    created(await send('POST', `/v1/retrospective_processes/${processId}/groups`, doc('retrospective_process_groups', { sub_status_id: await newSubStatus(), ...attributes })));
  const stepsOf = async (processId: string): Promise<Json[]> => (await send('GET', `/v1/retrospective_processes/${processId}/retrospective_steps?page[size]=100`)).body.data;
  const count = async (path: string): Promise<number> => (await send('GET', `${path}?page[size]=1`)).body.meta.total_count;

  test('a process: created with the starter steps, read, listed, changed and deleted', async () => {
    const process = await newProcess({ name: 'Customer-facing', description: 'For outages' });
    assert.deepEqual([process.type, process.attributes.is_default], ['retrospective_processes', false]);
    // No criteria: none answered (the reference's answer declares a non-nullable oneOf, which its SDK cannot parse as null).
    assert.ok(!('retrospective_process_matching_criteria' in process.attributes));
    assert.equal('copy_from' in process.attributes, false);
    const steps = await stepsOf(process.id);
    assert.deepEqual(
      steps.map((s) => s.attributes.title),
      ['Schedule the retrospective meeting', 'Write the retrospective', 'Review the action items', 'Publish the retrospective'],
    );
    assert.equal((await send('GET', `/v1/retrospective_processes/${process.id}`)).body.data.attributes.name, 'Customer-facing');
    assert.ok(ids(await send('GET', '/v1/retrospective_processes?page[size]=100')).includes(process.id));
    const changed = await send('PUT', `/v1/retrospective_processes/${process.id}`, doc('retrospective_processes', { description: 'For every outage' }));
    assert.equal(changed.status, 200);
    assert.equal(changed.body.data.attributes.description, 'For every outage');
    assert.equal((await send('DELETE', `/v1/retrospective_processes/${process.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/retrospective_processes/${process.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, process.id), ['retrospective_process.created', 'retrospective_process.updated', 'retrospective_process.deleted']);
    assert.deepEqual(await outboxTypes(w.api, steps[0].id), ['retrospective_step.created', 'retrospective_step.deleted']);
  });

  test('copy_from copies the steps of another process; an unknown one is a 422 naming copy_from, nothing written', async () => {
    const source = await newProcess({ copy_from: 'starter_template' });
    await newStep(source.id, { title: 'Extra', description: 'Copied too', due_after_days: 3, skippable: true });
    const copy = await newProcess({ copy_from: source.id });
    const copied = await stepsOf(copy.id);
    assert.equal(copied.length, 5);
    const extra = copied.find((s) => s.attributes.title === 'Extra')!;
    assert.deepEqual([extra.attributes.description, extra.attributes.due_after_days, extra.attributes.skippable, extra.attributes.retrospective_process_id], ['Copied too', 3, true, copy.id]);
    const before = await count('/v1/retrospective_processes');
    for (const copyFrom of ['nothing-like-this', (await newProcess({}, w.other.token)).id]) {
      const bad = await send('POST', '/v1/retrospective_processes', doc('retrospective_processes', { name: unique('Bad'), copy_from: copyFrom }));
      assert.equal(bad.status, 422);
      assert.deepEqual(pointers(bad), ['/data/attributes/copy_from']);
    }
    const missing = await send('POST', '/v1/retrospective_processes', doc('retrospective_processes', { name: unique('No copy') }));
    assert.deepEqual([missing.status, pointers(missing)], [422, ['/data/attributes/copy_from']]);
    assert.equal(await count('/v1/retrospective_processes'), before);
  });

  test('matching criteria name one kind of record of the organization', async () => {
    const severity = created(await send('POST', '/v1/severities', doc('severities', { name: unique('SEV'), severity: 'critical' }))).id;
    const process = await newProcess({ retrospective_process_matching_criteria: { severity_ids: [severity] } });
    assert.deepEqual(process.attributes.retrospective_process_matching_criteria, { severity_ids: [severity] });
    const foreign = created(await send('POST', '/v1/severities', doc('severities', { name: unique('SEV'), severity: 'critical' }), w.other.token)).id;
    const unknown = await send('PUT', `/v1/retrospective_processes/${process.id}`, doc('retrospective_processes', { retrospective_process_matching_criteria: { severity_ids: [severity, foreign] } }));
    assert.deepEqual([unknown.status, pointers(unknown)], [422, ['/data/attributes/retrospective_process_matching_criteria/severity_ids/1']]);
    const group = created(await send('POST', '/v1/teams', doc('groups', { name: unique('Team') }))).id;
    const two = await send('PUT', `/v1/retrospective_processes/${process.id}`, doc('retrospective_processes', { retrospective_process_matching_criteria: { severity_ids: [severity], group_ids: [group] } }));
    assert.deepEqual([two.status, pointers(two)], [422, ['/data/attributes/retrospective_process_matching_criteria']]);
    // The hosted API's Terraform provider sends every kind, the unused ones empty: those name nothing.
    const asTerraform = await send('PUT', `/v1/retrospective_processes/${process.id}`, doc('retrospective_processes', { retrospective_process_matching_criteria: { severity_ids: [severity], group_ids: [], incident_type_ids: [] } }));
    assert.deepEqual([asTerraform.status, asTerraform.body.data.attributes.retrospective_process_matching_criteria], [200, { severity_ids: [severity] }]);
    assert.deepEqual((await send('GET', `/v1/retrospective_processes/${process.id}`)).body.data.attributes.retrospective_process_matching_criteria, { severity_ids: [severity] });
  });

  test('steps: under their process, at /v1/retrospective_steps/{id}; bad input is a 422 naming the attribute', async () => {
    const [process, another] = [await newProcess(), await newProcess()];
    const role = created(await send('POST', '/v1/incident_roles', doc('incident_roles', { name: unique('Scribe'), summary: 'Writes' }))).id;
    const step = await newStep(process.id, { title: 'Gather data', incident_role_id: role, position: 9 });
    assert.deepEqual([step.attributes.slug, step.attributes.position, step.attributes.skippable, step.attributes.incident_role_id], ['gather-data', 9, false, role]);
    assert.ok((await stepsOf(process.id)).some((s) => s.id === step.id));
    assert.ok(!(await stepsOf(another.id)).some((s) => s.id === step.id));
    const changed = await send('PUT', `/v1/retrospective_steps/${step.id}`, doc('retrospective_steps', { due_after_days: 4, skippable: true }));
    assert.deepEqual([changed.status, changed.body.data.attributes.due_after_days, changed.body.data.attributes.skippable], [200, 4, true]);
    const before = (await stepsOf(process.id)).length;
    const titleless = await send('POST', `/v1/retrospective_processes/${process.id}/retrospective_steps`, doc('retrospective_steps', { description: 'no title' }));
    assert.deepEqual([titleless.status, pointers(titleless)], [422, ['/data/attributes/title']]);
    const badRole = await send('POST', `/v1/retrospective_processes/${process.id}/retrospective_steps`, doc('retrospective_steps', { title: 'x', incident_role_id: '00000000-0000-4000-8000-000000000000' }));
    assert.deepEqual([badRole.status, pointers(badRole)], [422, ['/data/attributes/incident_role_id']]);
    const negative = await send('PUT', `/v1/retrospective_steps/${step.id}`, doc('retrospective_steps', { due_after_days: -1 }));
    assert.deepEqual([negative.status, pointers(negative)], [422, ['/data/attributes/due_after_days']]);
    assert.equal((await stepsOf(process.id)).length, before);
    assert.equal((await send('GET', `/v1/retrospective_steps/${step.id}`)).body.data.attributes.due_after_days, 4);
    assert.equal((await send('DELETE', `/v1/retrospective_steps/${step.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/retrospective_steps/${step.id}`)).status, 404);
  });

  test('groups and their steps: nested lists scoped to their parent, known sub-statuses, steps of the same process', async () => {
    const [process, another] = [await newProcess(), await newProcess()];
    const group = await newGroup(process.id);
    const second = await newGroup(process.id, { position: 5 });
    assert.deepEqual([group.attributes.retrospective_process_id, typeof group.attributes.position, second.attributes.position], [process.id, 'number', 5]);
    assert.deepEqual(ids(await send('GET', `/v1/retrospective_processes/${process.id}/groups?sort=-position`)), [second.id, group.id]);
    assert.deepEqual(ids(await send('GET', `/v1/retrospective_processes/${another.id}/groups`)), []);
    assert.deepEqual(ids(await send('GET', `/v1/retrospective_processes/${process.id}/groups?filter[sub_status_id]=${second.attributes.sub_status_id}`)), [second.id]);
    const unknown = await send('POST', `/v1/retrospective_processes/${process.id}/groups`, doc('retrospective_process_groups', { sub_status_id: '00000000-0000-4000-8000-000000000000' }));
    assert.deepEqual([unknown.status, pointers(unknown)], [422, ['/data/attributes/sub_status_id']]);
    assert.equal(ids(await send('GET', `/v1/retrospective_processes/${process.id}/groups`)).length, 2);

    const [step] = await stepsOf(process.id);
    const placed = created(await send('POST', `/v1/retrospective_process_groups/${group.id}/steps`, doc('retrospective_process_group_steps', { retrospective_step_id: step.id })));
    assert.deepEqual([placed.attributes.retrospective_process_group_id, placed.attributes.retrospective_step_id], [group.id, step.id]);
    assert.deepEqual(ids(await send('GET', `/v1/retrospective_process_groups/${group.id}/steps`)), [placed.id]);
    assert.deepEqual(ids(await send('GET', `/v1/retrospective_process_groups/${second.id}/steps`)), []);
    const [strange] = await stepsOf(another.id);
    const elsewhere = await send('POST', `/v1/retrospective_process_groups/${group.id}/steps`, doc('retrospective_process_group_steps', { retrospective_step_id: strange.id }));
    assert.deepEqual([elsewhere.status, pointers(elsewhere)], [422, ['/data/attributes/retrospective_step_id']]);
    assert.equal(ids(await send('GET', `/v1/retrospective_process_groups/${group.id}/steps`)).length, 1);
    const moved = await send('PUT', `/v1/retrospective_process_group_steps/${placed.id}`, doc('retrospective_process_group_steps', { position: 3 }));
    assert.deepEqual([moved.status, moved.body.data.attributes.position], [200, 3]);
    const regrouped = await send('PUT', `/v1/retrospective_process_groups/${second.id}`, doc('retrospective_process_groups', { position: 1 }));
    assert.deepEqual([regrouped.status, regrouped.body.data.attributes.position], [200, 1]);
  });

  test('deletes cascade: a step takes its group steps, a group its steps, a process everything, each with its event', async () => {
    const process = await newProcess();
    const [first, second] = await stepsOf(process.id);
    const group = await newGroup(process.id);
    const place = async (stepId: string) => created(await send('POST', `/v1/retrospective_process_groups/${group.id}/steps`, doc('retrospective_process_group_steps', { retrospective_step_id: stepId })));
    const [a, b] = [await place(first.id), await place(second.id)];
    assert.equal((await send('DELETE', `/v1/retrospective_steps/${first.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/retrospective_process_group_steps/${a.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, a.id), ['retrospective_process_group_step.created', 'retrospective_process_group_step.deleted']);
    assert.equal((await send('DELETE', `/v1/retrospective_processes/${process.id}`)).status, 200);
    for (const [path, id] of [['retrospective_process_groups', group.id], ['retrospective_process_group_steps', b.id], ['retrospective_steps', second.id]]) {
      assert.equal((await send('GET', `/v1/${path}/${id}`)).status, 404, path);
    }
    assert.deepEqual(await outboxTypes(w.api, group.id), ['retrospective_process_group.created', 'retrospective_process_group.deleted']);
    assert.deepEqual(await outboxTypes(w.api, b.id), ['retrospective_process_group_step.created', 'retrospective_process_group_step.deleted']);
    assert.deepEqual(await outboxTypes(w.api, second.id), ['retrospective_step.created', 'retrospective_step.deleted']);
  });

  test('post-mortem templates: defaults, content_html following the format, changed and deleted; bad input is a 422', async () => {
    const template = created(await send('POST', '/v1/post_mortem_templates', doc('post_mortem_templates', { name: 'Standard Review', content: '<h1>{{ incident.title }}</h1>' })));
    assert.deepEqual(
      [template.attributes.slug, template.attributes.format, template.attributes.default, template.attributes.content_html, template.attributes.content_json],
      ['standard-review', 'html', false, '<h1>{{ incident.title }}</h1>', null],
    );
    const markdown = await send('PUT', `/v1/post_mortem_templates/${template.id}`, doc('post_mortem_templates', { format: 'markdown', content: '# Review', default: true }));
    assert.deepEqual([markdown.status, markdown.body.data.attributes.format, markdown.body.data.attributes.content_html, markdown.body.data.attributes.default], [200, 'markdown', null, true]);
    const reset = await send('PUT', `/v1/post_mortem_templates/${template.id}`, doc('post_mortem_templates', { format: null }));
    assert.deepEqual([reset.body.data.attributes.format, reset.body.data.attributes.content_html], ['html', '# Review']);
    assert.equal((await send('GET', '/v1/post_mortem_templates/standard-review')).body.data.id, template.id);
    const before = await count('/v1/post_mortem_templates');
    const bad = await send('POST', '/v1/post_mortem_templates', doc('post_mortem_templates', { name: 'Bad', format: 'pdf' }));
    assert.deepEqual([bad.status, pointers(bad)], [422, ['/data/attributes/format']]);
    const nameless = await send('POST', '/v1/post_mortem_templates', doc('post_mortem_templates', { content: 'x' }));
    assert.deepEqual([nameless.status, pointers(nameless)], [422, ['/data/attributes/name']]);
    assert.equal(await count('/v1/post_mortem_templates'), before);
    assert.equal((await send('DELETE', `/v1/post_mortem_templates/${template.id}`)).status, 200);
    assert.deepEqual(await outboxTypes(w.api, template.id), ['post_mortem_template.created', 'post_mortem_template.updated', 'post_mortem_template.updated', 'post_mortem_template.deleted']);
  });

  test("another organization's records answer 404 and never show in its lists", async () => {
    const process = await newProcess();
    const [step] = await stepsOf(process.id);
    const group = await newGroup(process.id);
    const placed = created(await send('POST', `/v1/retrospective_process_groups/${group.id}/steps`, doc('retrospective_process_group_steps', { retrospective_step_id: step.id })));
    const template = created(await send('POST', '/v1/post_mortem_templates', doc('post_mortem_templates', { name: unique('Template') })));
    const theirs = (method: string, path: string, body?: unknown) => send(method, path, body, w.other.token);
    for (const [path, id] of [
      ['retrospective_processes', process.id],
      ['retrospective_steps', step.id],
      ['retrospective_process_groups', group.id],
      ['retrospective_process_group_steps', placed.id],
      ['post_mortem_templates', template.id],
    ]) {
      assert.equal((await theirs('GET', `/v1/${path}/${id}`)).status, 404, path);
      assert.equal((await theirs('PUT', `/v1/${path}/${id}`, doc(path, {}))).status, 404, path);
      assert.equal((await theirs('DELETE', `/v1/${path}/${id}`)).status, 404, path);
    }
    assert.equal((await theirs('GET', `/v1/retrospective_processes/${process.id}/retrospective_steps`)).status, 404);
    assert.equal((await theirs('GET', `/v1/retrospective_processes/${process.id}/groups`)).status, 404);
    assert.equal((await theirs('GET', `/v1/retrospective_process_groups/${group.id}/steps`)).status, 404);
    assert.equal((await theirs('POST', `/v1/retrospective_processes/${process.id}/retrospective_steps`, doc('retrospective_steps', { title: 'x' }))).status, 404);
    assert.ok(!ids(await theirs('GET', '/v1/retrospective_processes?page[size]=100')).includes(process.id));
    assert.ok(!ids(await theirs('GET', '/v1/post_mortem_templates?page[size]=100')).includes(template.id));
    assert.equal((await send('GET', `/v1/retrospective_processes/${process.id}`)).status, 200);
  });
});
