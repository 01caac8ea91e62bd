import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { useApiWorld } from './support/api-world';
import { created, doc, ids, outboxEvents, outboxTypes, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

/** Workflows, their groups, tasks, runs and conditions, stored and answered; none executes (docs/workflows.md). */
describe('workflows over HTTP', () => {
  const w = useApiWorld();
  const { send } = w;

  const make = async (path: string, type: string, attributes: Attributes, token = w.org.token): Promise<Json> => created(await send('POST', path, doc(type, attributes), token));
  const newWorkflow = (attributes: Attributes = {}, token = w.org.token) => make('/v1/workflows', 'workflows', { name: unique('Workflow'), ...attributes }, token);
  const newField = (attributes: Attributes = {}, token = w.org.token) => make('/v1/form_fields', 'form_fields', { name: unique('Field'), kind: 'custom', input_kind: 'multi_select', ...attributes }, token);
  const newOption = (fieldId: string, value: string, token = w.org.token) => make(`/v1/form_fields/${fieldId}/options`, 'form_field_options', { value }, token);
  const SLACK = { task_type: 'send_slack_message', text: 'Incident {{ incident.title }} started' };
  const count = async (path: string) => (await send('GET', `${path}?page[size]=1`)).body.meta.total_count as number;

  test('a workflow group: created with its defaults, read by slug, listed with filters, changed; its delete ungroups its workflows', async () => {
    const group = await make('/v1/workflow_groups', 'workflow_groups', { name: 'Paging Flows', kind: 'incident' });
    const a = group.attributes;
    assert.deepEqual([a.slug, a.expanded, a.icon, a.kind, a.description, typeof a.position], ['paging-flows', true, '⚡', 'incident', null, 'number']);
    assert.equal((await send('GET', '/v1/workflow_groups/paging-flows')).body.data.id, group.id);
    assert.deepEqual(ids(await send('GET', '/v1/workflow_groups?filter[kind]=incident&filter[name]=Paging%20Flows')), [group.id]);
    assert.deepEqual(ids(await send('GET', '/v1/workflow_groups?filter[kind]=alert&filter[name]=Paging%20Flows')), []);
    const changed = await send('PUT', `/v1/workflow_groups/${group.id}`, doc('workflow_groups', { expanded: false, kind: null, position: 4 }));
    assert.deepEqual([changed.status, changed.body.data.attributes.expanded, changed.body.data.attributes.kind, changed.body.data.attributes.position], [200, false, null, 4]);
    const badKind = await send('POST', '/v1/workflow_groups', doc('workflow_groups', { name: 'x', kind: 'postmortem' }));
    assert.deepEqual([badKind.status, pointers(badKind)], [422, ['/data/attributes/kind']]);

    const grouped = await newWorkflow({ workflow_group_id: group.id });
    assert.deepEqual(ids(await send('GET', `/v1/workflows?filter[workflow_group_id]=${group.id}`)), [grouped.id]);
    assert.equal((await send('DELETE', `/v1/workflow_groups/${group.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/workflow_groups/${group.id}`)).status, 404);
    assert.equal((await send('GET', `/v1/workflows/${grouped.id}`)).body.data.attributes.workflow_group_id, null);
    assert.deepEqual(await outboxTypes(w.api, grouped.id), ['workflow.created', 'workflow.updated']);
    assert.deepEqual(await outboxTypes(w.api, group.id), ['workflow_group.created', 'workflow_group.updated', 'workflow_group.deleted']);
  });

  test('a workflow: created with its defaults, read by id and slug, listed, searched and sorted, changed and deleted', async () => {
    const trigger = { trigger_type: 'incident', triggers: ['incident_created', 'custom_fields.tier.updated'], incident_condition: 'ANY', incident_statuses: ['started'], incident_condition_acknowledged_at: null, something_new: { kept: true } };
    const workflow = await newWorkflow({ name: 'Page the DBAs', description: 'When databases burn', trigger_params: trigger, service_ids: ['svc-not-checked'], repeat_on: ['M', 'F'], priority: 'high' });
    const a = workflow.attributes;
    assert.deepEqual(
      [a.slug, a.enabled, a.locked, a.continuously_repeat, a.repeat_condition_number_of_repeats, a.workflow_group_id, a.wait, a.priority, a.cause_ids, a.service_ids, a.repeat_on],
      ['page-the-dbas', true, false, false, 0, null, null, 'high', [], ['svc-not-checked'], ['M', 'F']],
    );
    assert.deepEqual(a.trigger_params, trigger, 'trigger_params are answered as written');
    assert.deepEqual((await newWorkflow()).attributes.trigger_params, { trigger_type: 'simple', triggers: [] }, 'a workflow without trigger params runs when asked');
    assert.equal((await send('GET', '/v1/workflows/page-the-dbas')).body.data.id, workflow.id);
    assert.deepEqual(ids(await send('GET', '/v1/workflows?filter[search]=databases%20burn')), [workflow.id]);
    assert.deepEqual(ids(await send('GET', '/v1/workflows?filter[slug]=page-the-dbas')), [workflow.id]);
    const later = await newWorkflow({ position: 0 });
    assert.equal(ids(await send('GET', '/v1/workflows?page[size]=100'))[0], later.id, 'ascending position by default');
    assert.equal(ids(await send('GET', '/v1/workflows?page[size]=100&sort=-position')).at(-1), later.id);
    // The hosted API's post_mortem variant (its Terraform provider's workflow_post_mortem), beyond the reference's five.
    const retro = { trigger_type: 'post_mortem', triggers: ['post_mortem_updated'], incident_post_mortem_condition: 'ANY', incident_post_mortem_statuses: ['published'], incident_condition_cause: 'ANY' };
    assert.deepEqual((await newWorkflow({ trigger_params: retro })).attributes.trigger_params, retro);
    const changed = await send('PUT', `/v1/workflows/${workflow.id}`, doc('workflows', { enabled: false, trigger_params: { trigger_type: 'alert', triggers: ['alert_created'], alert_condition: 'ALL' }, wait: '5 min' }));
    assert.deepEqual([changed.status, changed.body.data.attributes.enabled, changed.body.data.attributes.trigger_params.trigger_type, changed.body.data.attributes.wait], [200, false, 'alert', '5 min']);
    assert.equal((await send('DELETE', `/v1/workflows/${workflow.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/workflows/${workflow.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, workflow.id), ['workflow.created', 'workflow.updated', 'workflow.deleted']);
  });

  test('trigger params and a group are checked: a 422 naming the attribute, and nothing written', async () => {
    const before = await count('/v1/workflows');
    const foreignGroup = await make('/v1/workflow_groups', 'workflow_groups', { name: unique('Theirs') }, w.other.token);
    const cases: [Attributes, string][] = [
      [{ trigger_params: { trigger_type: 'cron' } }, '/data/attributes/trigger_params/trigger_type'],
      [{ trigger_params: { triggers: ['incident_created'] } }, '/data/attributes/trigger_params/trigger_type'],
      [{ trigger_params: { trigger_type: 'incident', incident_condition: 'SOME' } }, '/data/attributes/trigger_params/incident_condition'],
      [{ trigger_params: { trigger_type: 'incident', incident_statuses: ['started', 'burning'] } }, '/data/attributes/trigger_params/incident_statuses'],
      [{ trigger_params: { trigger_type: 'alert', triggers: ['incident_created'] } }, '/data/attributes/trigger_params/triggers'],
      [{ trigger_params: { trigger_type: 'action_item', incident_condition_label_use_regexp: { on: [] } } }, '/data/attributes/trigger_params/incident_condition_label_use_regexp'],
      [{ trigger_params: { trigger_type: 'incident', incident_labels: ['a', 1] } }, '/data/attributes/trigger_params/incident_labels'],
      [{ trigger_params: { trigger_type: 'alert', alert_payload_conditions: ['x'] } }, '/data/attributes/trigger_params/alert_payload_conditions'],
      [{ trigger_params: { trigger_type: 'pulse', pulse_query_payload: 7 } }, '/data/attributes/trigger_params/pulse_query_payload'],
      [{ trigger_params: { trigger_type: 'post_mortem', incident_post_mortem_statuses: ['final'] } }, '/data/attributes/trigger_params/incident_post_mortem_statuses'],
      [{ trigger_params: { trigger_type: 'action_item', incident_action_item_priorities: ['urgent'] } }, '/data/attributes/trigger_params/incident_action_item_priorities'],
      [{ repeat_on: ['X'] }, '/data/attributes/repeat_on/0'],
      [{ workflow_group_id: foreignGroup.id }, '/data/attributes/workflow_group_id'],
      [{ priority: 'urgent' }, '/data/attributes/priority'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await send('POST', '/v1/workflows', doc('workflows', { name: unique('Bad'), ...attributes }));
      assert.deepEqual([res.status, pointers(res)], [422, [pointer]], JSON.stringify(attributes));
      assert.ok(res.body.errors[0].detail.includes(pointer.split('/').slice(3).join('.').replace(/\.\d+$/, '')), res.body.errors[0].detail);
    }
    const workflow = await newWorkflow();
    const update = await send('PUT', `/v1/workflows/${workflow.id}`, doc('workflows', { trigger_params: { trigger_type: 'pulse', triggers: ['alert_created'] } }));
    assert.deepEqual([update.status, pointers(update)], [422, ['/data/attributes/trigger_params/triggers']]);
    assert.equal(await count('/v1/workflows'), before + 1);
    assert.deepEqual((await send('GET', `/v1/workflows/${workflow.id}`)).body.data.attributes.trigger_params, { trigger_type: 'simple', triggers: [] });
  });

  test('trigger params as the Terraform provider sends them: "" for an unset enumerated member and [] for unset payload conditions are taken as not sent', async () => {
    const incident = await newWorkflow({ trigger_params: { trigger_type: 'incident', triggers: ['incident_created'], incident_condition_acknowledged_at: '', incident_condition_kind: 'IS', incident_inactivity_duration: '', incident_kinds: [] } });
    assert.deepEqual(incident.attributes.trigger_params, { trigger_type: 'incident', triggers: ['incident_created'], incident_condition_kind: 'IS', incident_inactivity_duration: '', incident_kinds: [] });
    const alert = await newWorkflow({ trigger_params: { trigger_type: 'alert', triggers: ['alert_created'], alert_payload_conditions: [], alert_condition: '' } });
    assert.deepEqual(alert.attributes.trigger_params, { trigger_type: 'alert', triggers: ['alert_created'] });
  });

  test('tasks: created and listed under their workflow in position order, named by their type, read, changed and deleted at their own path', async () => {
    const workflow = await newWorkflow();
    const elsewhere = await newWorkflow();
    const collection = `/v1/workflows/${workflow.id}/workflow_tasks`;
    const slack = await make(collection, 'workflow_tasks', { task_params: SLACK });
    const http = await make(collection, 'workflow_tasks', { name: 'Call the hook', skip_on_failure: true, task_params: { task_type: 'http_client', url: 'https://example.com/hook', succeed_on_status: '200', method: 'POST' } });
    await make(`/v1/workflows/${elsewhere.id}/workflow_tasks`, 'workflow_tasks', { task_params: SLACK });
    assert.deepEqual(
      [slack.attributes.workflow_id, slack.attributes.name, slack.attributes.enabled, slack.attributes.skip_on_failure, slack.attributes.task_params],
      [workflow.id, 'send_slack_message', true, false, SLACK],
    );
    assert.ok(http.attributes.position > slack.attributes.position);
    assert.deepEqual(ids(await send('GET', collection)), [slack.id, http.id]);
    assert.deepEqual(ids(await send('GET', `${collection}?filter[name]=Call%20the%20hook`)), [http.id]);
    assert.deepEqual(ids(await send('GET', `${collection}?filter[search]=hook`)), [http.id]);
    assert.equal((await send('GET', `/v1/workflow_tasks/${http.id}`)).body.data.attributes.task_params.url, 'https://example.com/hook');
    const changed = await send('PUT', `/v1/workflow_tasks/${slack.id}`, doc('workflow_tasks', { enabled: false, position: 0, task_params: { task_type: 'print', message: 'hi' } }));
    assert.deepEqual([changed.status, changed.body.data.attributes.enabled, changed.body.data.attributes.task_params], [200, false, { task_type: 'print', message: 'hi' }]);
    assert.equal((await send('DELETE', `/v1/workflow_tasks/${http.id}`)).status, 200);
    assert.deepEqual(ids(await send('GET', collection)), [slack.id]);
    assert.equal((await send('GET', `/v1/workflows/${randomUUID()}/workflow_tasks`)).status, 404);
  });

  test('tasks created at once under one workflow without a position each take their own (the Terraform provider refuses shared ones)', async () => {
    const workflow = await newWorkflow();
    const collection = `/v1/workflows/${workflow.id}/workflow_tasks`;
    const tasks = await Promise.all(Array.from({ length: 12 }, () => make(collection, 'workflow_tasks', { task_params: SLACK })));
    const positions = tasks.map((t) => t.attributes.position as number).sort((a, b) => a - b);
    assert.deepEqual(positions, Array.from({ length: 12 }, (_, i) => i + 1));
  });

  test("task params: the task types the hosted API's Terraform provider sends beyond the reference's names are taken, with the members it requires", async () => {
    const workflow = await newWorkflow();
    const collection = `/v1/workflows/${workflow.id}/workflow_tasks`;
    const params = { task_type: 'create_openai_chat_completion', model: 'gpt-4o', prompt: 'Summarize {{ incident.title }}' };
    assert.deepEqual((await make(collection, 'workflow_tasks', { task_params: params })).attributes.task_params, params);
    assert.equal((await make(collection, 'workflow_tasks', { task_params: { task_type: 'update_incident_status_timestamp', sub_status_id: randomUUID(), assigned_at: '{{ now }}' } })).attributes.name, 'update_incident_status_timestamp');
    const missing = await send('POST', collection, doc('workflow_tasks', { task_params: { task_type: 'create_watsonx_chat_completion', model: 'granite', prompt: 'p' } }));
    assert.deepEqual([missing.status, pointers(missing)], [422, ['/data/attributes/task_params/project_id']]);
  });

  test('task params: the task type is one of the reference\'s and its required members are there; else a 422 naming task_params, and nothing written', async () => {
    const workflow = await newWorkflow();
    const collection = `/v1/workflows/${workflow.id}/workflow_tasks`;
    const cases: [unknown, string][] = [
      [{ text: 'no type' }, '/data/attributes/task_params/task_type'],
      [{ task_type: 'launch_rocket' }, '/data/attributes/task_params/task_type'],
      [{ task_type: 'send_slack_message' }, '/data/attributes/task_params/text'],
      [{ task_type: 'add_action_item', summary: 'Follow up', status: 'open' }, '/data/attributes/task_params/priority'],
      ['not an object', '/data/attributes/task_params'],
    ];
    for (const [params, pointer] of cases) {
      const res = await send('POST', collection, doc('workflow_tasks', { task_params: params }));
      assert.deepEqual([res.status, pointers(res)], [422, [pointer]], JSON.stringify(params));
      assert.match(res.body.errors[0].detail, /task_params/);
    }
    const missing = await send('POST', collection, doc('workflow_tasks', { name: 'No params' }));
    assert.deepEqual([missing.status, pointers(missing)], [422, ['/data/attributes/task_params']]);
    // A type the reference shares between variants is satisfied by either (update_google_calendar_event's is create_google_calendar_event).
    created(await send('POST', collection, doc('workflow_tasks', { task_params: { task_type: 'create_google_calendar_event', event_id: 'evt-1' } })));
    assert.equal(await count(collection), 1);
    const task = (await send('GET', collection)).body.data[0];
    const bad = await send('PUT', `/v1/workflow_tasks/${task.id}`, doc('workflow_tasks', { task_params: { task_type: 'nope' } }));
    assert.deepEqual([bad.status, pointers(bad)], [422, ['/data/attributes/task_params/task_type']]);
    assert.equal((await send('GET', `/v1/workflow_tasks/${task.id}`)).body.data.attributes.task_params.event_id, 'evt-1');
  });

  test('runs: recorded as queued by the user who asked, answered, listed under their workflow and announced; none executes', async () => {
    const workflow = await newWorkflow();
    const elsewhere = await newWorkflow();
    const collection = `/v1/workflows/${workflow.id}/workflow_runs`;
    const incidentId = randomUUID();
    const res = await send('POST', collection, doc('workflow_runs', { incident_id: incidentId, context: { reason: 'drill' }, immediate: true, check_conditions: false }));
    assert.equal(res.status, 201);
    const run = res.body.data;
    assert.equal(run.type, 'workflow_runs');
    assert.deepEqual(
      [run.attributes.workflow_id, run.attributes.status, run.attributes.triggered_by, run.attributes.incident_id, run.attributes.alert_id, run.attributes.context, run.attributes.started_at, run.attributes.completed_at],
      [workflow.id, 'queued', 'user', incidentId, null, { reason: 'drill' }, null, null],
    );
    assert.ok(!('immediate' in run.attributes) && !('check_conditions' in run.attributes));
    const plain = created(await send('POST', collection, doc('workflow_runs', {})));
    assert.deepEqual([plain.attributes.context, plain.attributes.incident_id], [{}, null]);
    created(await send('POST', `/v1/workflows/${elsewhere.id}/workflow_runs`, doc('workflow_runs', {})));
    assert.deepEqual(ids(await send('GET', collection)), [run.id, plain.id]);
    assert.deepEqual(ids(await send('GET', `${collection}?filter[created_at][lt]=2000-01-01`)), []);
    const events = await outboxEvents(w.api, run.id);
    assert.deepEqual(events.map((e) => e.type), ['workflow_run.created']);
    assert.equal((events[0].payload as Json).status, 'queued');
    // No task runs: a queued run stays queued.
    assert.equal((await send('GET', collection)).body.data[0].attributes.status, 'queued');

    const two = await send('POST', collection, doc('workflow_runs', { incident_id: incidentId, alert_id: randomUUID() }));
    assert.deepEqual([two.status, pointers(two)], [422, ['/data/attributes/alert_id']]);
    const status = await send('POST', collection, doc('workflow_runs', { status: 'completed' }));
    assert.equal(created(status).attributes.status, 'queued', 'status is output-only');
    const typed = await send('POST', collection, doc('workflow_runs', { context: 'drill' }));
    assert.deepEqual([typed.status, pointers(typed)], [422, ['/data/attributes/context']]);
    assert.equal(await count(collection), 3);
    assert.equal((await send('POST', `/v1/workflows/${randomUUID()}/workflow_runs`, doc('workflow_runs', {}))).status, 404);
  });

  test('form field conditions: of an incident field of the organization, selecting its options; listed under their workflow', async () => {
    const workflow = await newWorkflow();
    const collection = `/v1/workflows/${workflow.id}/form_field_conditions`;
    const field = await newField();
    const [eu, us] = [await newOption(field.id, 'EU'), await newOption(field.id, 'US')];
    const otherField = await newField();
    const otherOption = await newOption(otherField.id, 'APAC');
    const actionItemField = await newField({ resource_type: 'action_item' });
    const foreignField = await newField({}, w.other.token);
    const before = await count(collection);
    const refused: [Attributes, string][] = [
      [{}, '/data/attributes/form_field_id'],
      [{ form_field_id: randomUUID() }, '/data/attributes/form_field_id'],
      [{ form_field_id: foreignField.id }, '/data/attributes/form_field_id'],
      [{ form_field_id: actionItemField.id }, '/data/attributes/form_field_id'],
      [{ form_field_id: field.id, selected_option_ids: [eu.id, otherOption.id] }, '/data/attributes/selected_option_ids/1'],
      [{ form_field_id: field.id, incident_condition: 'SOMETIMES' }, '/data/attributes/incident_condition'],
    ];
    for (const [attributes, pointer] of refused) {
      const res = await send('POST', collection, doc('workflow_form_field_conditions', attributes));
      assert.deepEqual([res.status, pointers(res)], [422, [pointer]], JSON.stringify(attributes));
    }
    assert.equal(await count(collection), before);

    const condition = await make(collection, 'workflow_form_field_conditions', { form_field_id: field.id, selected_option_ids: [eu.id], selected_catalog_entity_ids: ['entity-as-given'], selected_user_ids: [7] });
    const a = condition.attributes;
    assert.deepEqual(
      [a.workflow_id, a.form_field_id, a.incident_condition, a.selected_option_ids, a.selected_catalog_entity_ids, a.selected_user_ids, a.values, a.selected_service_ids],
      [workflow.id, field.id, 'ANY', [eu.id], ['entity-as-given'], [7], [], []],
    );
    await make(`/v1/workflows/${(await newWorkflow()).id}/form_field_conditions`, 'workflow_form_field_conditions', { form_field_id: field.id });
    assert.deepEqual(ids(await send('GET', collection)), [condition.id]);
    const changed = await send('PUT', `/v1/workflow_form_field_conditions/${condition.id}`, doc('workflow_form_field_conditions', { incident_condition: 'IS', selected_option_ids: [us.id], values: ['x'] }));
    assert.deepEqual([changed.status, changed.body.data.attributes.incident_condition, changed.body.data.attributes.selected_option_ids], [200, 'IS', [us.id]]);
    const wrong = await send('PUT', `/v1/workflow_form_field_conditions/${condition.id}`, doc('workflow_form_field_conditions', { selected_option_ids: [otherOption.id] }));
    assert.deepEqual([wrong.status, pointers(wrong)], [422, ['/data/attributes/selected_option_ids/0']]);
    const included = await send('GET', `/v1/workflows/${workflow.id}?include=form_field_conditions`);
    assert.deepEqual(included.body.included.map((r: Json) => r.id), [condition.id]);
    const deleted = await send('DELETE', `/v1/workflow_form_field_conditions/${condition.id}`);
    assert.deepEqual([deleted.status, deleted.body.data.id], [200, condition.id]);
    assert.equal((await send('GET', `/v1/workflow_form_field_conditions/${condition.id}`)).status, 404);
  });

  test('action item form field conditions name action item fields; custom field selections name a custom field and its options', async () => {
    const workflow = await newWorkflow();
    const actionItemField = await newField({ resource_type: 'action_item' });
    const option = await newOption(actionItemField.id, 'Blocked');
    const incidentField = await newField();
    const conditions = `/v1/workflows/${workflow.id}/action_item_form_field_conditions`;
    const refused = await send('POST', conditions, doc('workflow_action_item_form_field_conditions', { form_field_id: incidentField.id }));
    assert.deepEqual([refused.status, pointers(refused)], [422, ['/data/attributes/form_field_id']]);
    const condition = await make(conditions, 'workflow_action_item_form_field_conditions', { form_field_id: actionItemField.id, action_item_condition: 'CONTAINS', selected_option_ids: [option.id] });
    assert.deepEqual([condition.attributes.action_item_condition, condition.attributes.selected_option_ids, condition.attributes.workflow_id], ['CONTAINS', [option.id], workflow.id]);
    assert.ok(!('incident_condition' in condition.attributes));
    assert.deepEqual(ids(await send('GET', conditions)), [condition.id]);
    assert.equal((await send('PUT', `/v1/workflow_action_item_form_field_conditions/${condition.id}`, doc('workflow_action_item_form_field_conditions', { values: ['a'] }))).body.data.attributes.values[0], 'a');

    const customField = await make('/v1/custom_fields', 'custom_fields', { label: unique('Region') });
    const customOption = await make(`/v1/custom_fields/${customField.id}/options`, 'custom_field_options', { value: 'EU' });
    const selections = `/v1/workflows/${workflow.id}/custom_field_selections`;
    const unknown = await send('POST', selections, doc('workflow_custom_field_selections', { custom_field_id: randomUUID() }));
    assert.deepEqual([unknown.status, pointers(unknown)], [422, ['/data/attributes/custom_field_id']]);
    const integer = await send('POST', selections, doc('workflow_custom_field_selections', { custom_field_id: 42 }));
    assert.deepEqual([integer.status, pointers(integer)], [422, ['/data/attributes/custom_field_id']]);
    const notOption = await send('POST', selections, doc('workflow_custom_field_selections', { custom_field_id: customField.id, selected_option_ids: [option.id] }));
    assert.deepEqual([notOption.status, pointers(notOption)], [422, ['/data/attributes/selected_option_ids/0']]);
    const selection = await make(selections, 'workflow_custom_field_selections', { custom_field_id: customField.id, selected_option_ids: [customOption.id], values: ['EU'] });
    assert.deepEqual([selection.attributes.incident_condition, selection.attributes.selected_option_ids], ['ANY', [customOption.id]]);
    assert.deepEqual(ids(await send('GET', selections)), [selection.id]);
    assert.equal((await send('PUT', `/v1/workflow_custom_field_selections/${selection.id}`, doc('workflow_custom_field_selections', { incident_condition: 'NONE' }))).body.data.attributes.incident_condition, 'NONE');
    assert.equal((await send('DELETE', `/v1/workflow_custom_field_selections/${selection.id}`)).status, 200);
    assert.deepEqual(ids(await send('GET', selections)), []);
  });

  test('deleting a workflow deletes its tasks, runs, conditions and selections, each with its event', async () => {
    const workflow = await newWorkflow();
    const field = await newField();
    const actionItemField = await newField({ resource_type: 'action_item' });
    const customField = await make('/v1/custom_fields', 'custom_fields', { label: unique('Tier') });
    const records = [
      await make(`/v1/workflows/${workflow.id}/workflow_tasks`, 'workflow_tasks', { task_params: SLACK }),
      await make(`/v1/workflows/${workflow.id}/workflow_runs`, 'workflow_runs', {}),
      await make(`/v1/workflows/${workflow.id}/form_field_conditions`, 'workflow_form_field_conditions', { form_field_id: field.id }),
      await make(`/v1/workflows/${workflow.id}/action_item_form_field_conditions`, 'workflow_action_item_form_field_conditions', { form_field_id: actionItemField.id }),
      await make(`/v1/workflows/${workflow.id}/custom_field_selections`, 'workflow_custom_field_selections', { custom_field_id: customField.id }),
    ];
    const withTasks = await send('GET', `/v1/workflows?filter[slug]=${workflow.attributes.slug}&include=genius_tasks,genius_workflow_runs,alert_field_conditions`);
    assert.deepEqual(withTasks.body.included.map((r: Json) => r.type).sort(), ['workflow_runs', 'workflow_tasks']);
    assert.equal((await send('DELETE', `/v1/workflows/${workflow.id}`)).status, 200);
    for (const record of records) {
      const singular = record.type.replace(/s$/, '');
      assert.deepEqual(await outboxTypes(w.api, record.id), [`${singular}.created`, `${singular}.deleted`], record.type);
    }
    assert.equal((await send('GET', `/v1/workflow_tasks/${records[0].id}`)).status, 404);
    assert.equal((await send('GET', `/v1/workflow_form_field_conditions/${records[2].id}`)).status, 404);
    assert.equal((await send('GET', `/v1/workflows/${workflow.id}/workflow_runs`)).status, 404);
  });

  test('workflows need workflows permissions; another organization gets 404 and never sees them', async () => {
    const workflow = await newWorkflow();
    const task = await make(`/v1/workflows/${workflow.id}/workflow_tasks`, 'workflow_tasks', { task_params: SLACK });
    const group = await make('/v1/workflow_groups', 'workflow_groups', { name: unique('Group') });
    const role = created(await send('POST', '/v1/roles', doc('roles', { name: unique('Incidents only'), incidents_permissions: ['read'] })));
    const limited = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: role.id });
    assert.equal((await send('GET', '/v1/workflows', undefined, limited)).status, 403);
    assert.equal((await send('POST', '/v1/workflows', doc('workflows', { name: 'x' }), limited)).status, 403);
    assert.equal((await send('GET', `/v1/workflows/${workflow.id}/workflow_runs`, undefined, limited)).status, 403);
    assert.equal((await send('POST', `/v1/workflows/${workflow.id}/workflow_runs`, doc('workflow_runs', {}), limited)).status, 403);
    assert.equal((await send('DELETE', `/v1/workflow_tasks/${task.id}`, undefined, limited)).status, 403);
    const reader = created(await send('POST', '/v1/roles', doc('roles', { name: unique('Workflow reader'), workflows_permissions: ['read'] })));
    const reading = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: reader.id });
    assert.equal((await send('GET', `/v1/workflows/${workflow.id}`, undefined, reading)).status, 200);
    assert.equal((await send('PUT', `/v1/workflows/${workflow.id}`, doc('workflows', { enabled: false }), reading)).status, 403);

    for (const [method, path, body] of [
      ['GET', `/v1/workflows/${workflow.id}`],
      ['PUT', `/v1/workflows/${workflow.id}`, doc('workflows', { name: 'Taken' })],
      ['DELETE', `/v1/workflows/${workflow.id}`],
      ['GET', `/v1/workflows/${workflow.id}/workflow_tasks`],
      ['POST', `/v1/workflows/${workflow.id}/workflow_runs`, doc('workflow_runs', {})],
      ['GET', `/v1/workflows/${workflow.id}/workflow_runs`],
      ['GET', `/v1/workflow_tasks/${task.id}`],
      ['DELETE', `/v1/workflow_groups/${group.id}`],
    ] as [string, string, Json?][]) {
      assert.equal((await send(method, path, body, w.other.token)).status, 404, `${method} ${path}`);
    }
    assert.ok(!ids(await send('GET', '/v1/workflows?page[size]=100', undefined, w.other.token)).includes(workflow.id));
    assert.ok(!ids(await send('GET', '/v1/workflow_groups?page[size]=100', undefined, w.other.token)).includes(group.id));
    assert.equal((await send('GET', `/v1/workflows/${workflow.id}`)).body.data.attributes.name, workflow.attributes.name);
    assert.equal(await count(`/v1/workflows/${workflow.id}/workflow_runs`), 0);
  });
});
