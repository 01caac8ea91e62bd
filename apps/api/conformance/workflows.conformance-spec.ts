import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { TestApi, TestOrganization, TestResponse } from '../src/testing';
import { useApiWorld } from '../test/support/api-world';
import { unique as named } from '../test/support/json-api';
import { referenceValidator, sampleFromSchema, validateAgainstReference, type JsonSchema } from '../test/support/openapi-ajv';
import { assertStatus, CATALOG_KNOWN_STRICTER, describeReferenceConformance, INT4, INT4_OVERFLOW, made, REFERENCE, type Attributes } from './support/reference-conformance';

/** The reference conformance of workflows, their groups, tasks, runs and conditions (docs/workflows.md). */

const newWorkflow = (api: TestApi, org: TestOrganization) => made(api, org, '/v1/workflows', 'workflows', { name: named('Workflow') });
const underWorkflow = (segment: string) => ({ singular: 'workflow', path: '/v1/workflows', collection: `/v1/workflows/{workflow_id}/${segment}`, attribute: 'workflow_id', make: newWorkflow });
/** A select form field of the organization describing `resourceType` records, and one of its options. */
const fieldWithOption = async (api: TestApi, org: TestOrganization, resourceType: 'incident' | 'action_item') => {
  const field = await made(api, org, '/v1/form_fields', 'form_fields', { name: named('Field'), kind: 'custom', input_kind: 'multi_select', resource_type: resourceType });
  return { form_field_id: field, selected_option_ids: [await made(api, org, `/v1/form_fields/${field}/options`, 'form_field_options', { value: 'EU' })] };
};
const USER_IDS = { [`selected_user_ids=[${INT4_OVERFLOW}]`]: 'user ids are 32-bit integers' };

describeReferenceConformance({
  type: 'workflow_groups',
  path: '/v1/workflow_groups',
  singular: 'workflow_group',
  knownStricter: { ...CATALOG_KNOWN_STRICTER, ...INT4('position'), 'icon=<10000 chars>': 'an emoji: at most 32 characters' },
});

describeReferenceConformance({
  type: 'workflows',
  path: '/v1/workflows',
  singular: 'workflow',
  // The group a workflow names is one of the organization's.
  references: async (api, org) => ({ workflow_group_id: await made(api, org, '/v1/workflow_groups', 'workflow_groups', { name: named('Group') }) }),
  knownStricter: {
    ...CATALOG_KNOWN_STRICTER,
    ...INT4('position'),
    ...INT4('repeat_condition_number_of_repeats'),
    ...REFERENCE('workflow_group_id', 'a workflow group'),
  },
});

describeReferenceConformance({
  type: 'workflow_form_field_conditions',
  path: '/v1/workflow_form_field_conditions',
  singular: 'workflow_form_field_condition',
  parent: underWorkflow('form_field_conditions'),
  // The field is an incident field of the organization; the selected options are its.
  references: (api, org) => fieldWithOption(api, org, 'incident'),
  knownStricter: { ...REFERENCE('form_field_id', 'an incident form field'), ...USER_IDS },
});

describeReferenceConformance({
  type: 'workflow_action_item_form_field_conditions',
  path: '/v1/workflow_action_item_form_field_conditions',
  singular: 'workflow_action_item_form_field_condition',
  parent: underWorkflow('action_item_form_field_conditions'),
  references: (api, org) => fieldWithOption(api, org, 'action_item'),
  knownStricter: { ...REFERENCE('form_field_id', 'an action item form field'), ...USER_IDS },
});

/**
 * By hand, each answer checked against the reference's documents: tasks (the generic suite's typing
 * probe needs a typed required attribute, and a task's only one is the task_params oneOf), custom
 * field selections (the reference names the field and options by integer ids, which cannot name
 * Taproot's uuid records: docs/forms.md) and runs (list and create only).
 */
describe('workflow tasks, custom field selections and runs conform to the reference', () => {
  const w = useApiWorld();
  const NO_TOKEN = '';
  const send = (method: string, path: string, body?: unknown, token = w.org.token) => w.api.request(method, path, { token: token || undefined, body });
  /** The answer against the reference, the attributes it cannot validate (`gaps`) replaced by a value of its type. */
  const conforms = (res: TestResponse, status: number, schema: string, what: string, gaps: Attributes = {}) => {
    assertStatus(res, status, what);
    const body = structuredClone(res.body) as { data?: { attributes?: Attributes } | { attributes?: Attributes }[] };
    for (const { attributes } of [body.data ?? []].flat()) if (attributes) for (const [gap, stand] of Object.entries(gaps)) if (gap in attributes) attributes[gap] = stand;
    validateAgainstReference(schema, body, what);
  };
  const ref = () => referenceValidator();

  /** Create (reference-valid), get, list, update, the refusals and delete of one record under a workflow. */
  async function lifecycle(singular: string, collection: string, create: Attributes, update: Attributes, refused: Attributes, gaps: Attributes = {}): Promise<void> {
    const type = `${singular}s`;
    const res = await send('POST', collection, { data: { type, attributes: create } });
    conforms(res, 201, `${singular}_response`, `POST ${collection}`, gaps);
    const item = `/v1/${type}/${res.body.data.id}`;
    conforms(await send('GET', item), 200, `${singular}_response`, `GET ${item}`, gaps);
    conforms(await send('GET', `${collection}?page[size]=1`), 200, `${singular}_list`, `GET ${collection}`, gaps);
    const changed = await send('PUT', item, { data: { type, id: res.body.data.id, attributes: update } });
    conforms(changed, 200, `${singular}_response`, `PUT ${item}`, gaps);
    for (const [name, value] of Object.entries(update)) assert.deepEqual(changed.body.data.attributes[name], value, name);
    conforms(await send('PUT', item, { data: { type, attributes: refused } }), 422, 'errors_list', `PUT ${item} refused`);
    conforms(await send('POST', collection, { data: { type, attributes: {} } }), 422, 'errors_list', `POST ${collection} without attributes`);
    conforms(await send('POST', collection, { data: { type, attributes: { ...create, no_such_attribute: true } } }), 422, 'errors_list', `POST ${collection} with an unknown attribute`);
    conforms(await send('GET', collection, undefined, NO_TOKEN), 401, 'errors_list', `GET ${collection} without a token`);
    conforms(await send('PUT', `/v1/${type}/${randomUUID()}`, { data: { type, attributes: update } }), 404, 'errors_list', 'PUT an unknown id');
    conforms(await send('DELETE', item), 200, `${singular}_response`, `DELETE ${item}`, gaps);
    conforms(await send('GET', item), 404, 'errors_list', `GET ${item} after DELETE`);
  }

  test('workflow_tasks: every reference attribute filled, then changed', async () => {
    const collection = `/v1/workflows/${await newWorkflow(w.api, w.org)}/workflow_tasks`;
    const create = { name: 'Tell the channel', position: 1, skip_on_failure: true, enabled: true, task_params: { task_type: 'send_slack_message', text: 'Started', channels: [{ id: 'C1', name: 'incidents' }] } };
    ref().assertValid('new_workflow_task', { data: { type: 'workflow_tasks', attributes: create } }, 'the request document');
    const update = { name: 'Print it', position: 0, skip_on_failure: false, enabled: false, task_params: { task_type: 'print', message: 'hello' } };
    ref().assertValid('update_workflow_task', { data: { type: 'workflow_tasks', attributes: update } }, 'the update document');
    await lifecycle('workflow_task', collection, create, update, { name: 42 });
    const requiredOnly = await send('POST', collection, { data: { type: 'workflow_tasks', attributes: { task_params: { task_type: 'print', message: 'hi' } } } });
    conforms(requiredOnly, 201, 'workflow_task_response', 'POST with task_params only');
  });

  test('workflow_tasks: a task of each reference task type, sampled from its task params, is accepted and answered as written', async () => {
    const collection = `/v1/workflows/${await newWorkflow(w.api, w.org)}/workflow_tasks`;
    const variants = (ref().resolve((ref().schema('workflow_task').properties as Record<string, JsonSchema>).task_params).oneOf as JsonSchema[]).map((v) => ref().resolve(v));
    const typeOf = (v: JsonSchema) => ((v.properties as Record<string, JsonSchema>).task_type.enum as string[])[0];
    const shared = new Set(variants.map(typeOf).filter((t, i, all) => all.indexOf(t) !== i));
    const problems: string[] = [];
    for (const variant of variants) {
      // A variant's own anyOf (send_slack_message: channels, users or groups) adds its first choice to the members.
      const { anyOf, ...members } = variant;
      const sample = (schema: unknown) => sampleFromSchema(ref(), schema, { pick: (_pointer, s) => (s.pattern !== undefined ? 'sample' : undefined) }) as Attributes;
      const params = { ...sample(members), ...(Array.isArray(anyOf) ? sample(anyOf[0]) : {}) };
      const res = await send('POST', collection, { data: { type: 'workflow_tasks', attributes: { task_params: params } } });
      if (res.status !== 201) problems.push(`${typeOf(variant)}: ${res.status} ${JSON.stringify(res.body.errors)}`);
      else if (!isDeepStrictEqual(res.body.data.attributes.task_params, params)) problems.push(`${typeOf(variant)}: not answered as written`);
      // A type two reference variants share (create_google_calendar_event, ...) matches both: the reference's own oneOf cannot validate it.
      else if (!shared.has(typeOf(variant))) conforms(res, 201, 'workflow_task_response', `POST a ${typeOf(variant)} task`);
    }
    assert.deepEqual(problems, []);
    assert.ok(variants.length > 100, `${variants.length} task params variants`);
  });

  test('workflow_custom_field_selections: a custom field and its options, by uuid', async () => {
    const { api, org } = w;
    const field = await made(api, org, '/v1/custom_fields', 'custom_fields', { label: named('Region') });
    const option = await made(api, org, `/v1/custom_fields/${field}/options`, 'custom_field_options', { value: 'EU' });
    const collection = `/v1/workflows/${await newWorkflow(api, org)}/custom_field_selections`;
    // Options are uuids, which the reference's integer items cannot validate: selected under another workflow, out of the list checked below.
    const selected = await send('POST', `/v1/workflows/${await newWorkflow(api, org)}/custom_field_selections`, { data: { type: 'workflow_custom_field_selections', attributes: { custom_field_id: field, incident_condition: 'IS', selected_option_ids: [option], values: ['EU'] } } });
    assert.deepEqual([selected.status, selected.body.data.attributes.selected_option_ids], [201, [option]]);
    // The reference declares integer ids: the field's uuid is validated as the integer it declares, and options are selected and cleared.
    const create = { custom_field_id: field, incident_condition: 'ANY', values: ['EU'], selected_option_ids: [] };
    await lifecycle('workflow_custom_field_selection', collection, create, { incident_condition: 'CONTAINS', values: [], selected_option_ids: [] }, { selected_option_ids: [randomUUID()] }, { custom_field_id: 1 });
  });

  test('workflow_runs: created from each reference create document, answered and listed as the reference declares', async () => {
    const collection = `/v1/workflows/${await newWorkflow(w.api, w.org)}/workflow_runs`;
    const attributes = ref().resolve((ref().resolve((ref().schema('new_workflow_run').properties as Record<string, JsonSchema>).data).properties as Record<string, JsonSchema>).attributes);
    const variants = attributes.anyOf as JsonSchema[];
    for (const [i, variant] of variants.entries()) {
      const sampled = sampleFromSchema(ref(), { ...variant, type: 'object' }, { pick: (pointer) => (/_id$/.test(pointer) ? randomUUID() : undefined) }) as Attributes;
      const body = { data: { type: 'workflow_runs', attributes: sampled } };
      ref().assertValid('new_workflow_run', body, `variant ${i}`);
      const res = await send('POST', collection, body);
      conforms(res, 201, 'workflow_run_response', `POST ${collection} variant ${i}`);
      assert.deepEqual([res.body.data.attributes.status, res.body.data.attributes.triggered_by], ['queued', 'user']);
      for (const name of Object.keys(sampled).filter((n) => n.endsWith('_id'))) assert.equal(res.body.data.attributes[name], sampled[name], name);
    }
    const list = await send('GET', `${collection}?page[size]=2&page[number]=2`);
    conforms(list, 200, 'workflow_runs_list', `GET ${collection}`);
    assert.equal(list.body.meta.total_count, variants.length);
    conforms(await send('GET', `${collection}?filter[created_at][lt]=2000-01-01`), 200, 'workflow_runs_list', `GET ${collection} empty`);
    conforms(await send('POST', collection, { data: { type: 'workflow_runs', attributes: { incident_id: randomUUID(), alert_id: randomUUID() } } }), 422, 'errors_list', 'a run about two records');
    conforms(await send('POST', collection, { data: { type: 'workflow_runs', attributes: { context: 'text' } } }), 422, 'errors_list', 'a context that is no object');
    conforms(await send('POST', collection, { data: { type: 'workflow_runs', attributes: {} } }, NO_TOKEN), 401, 'errors_list', 'no token');
    conforms(await send('GET', `/v1/workflows/${randomUUID()}/workflow_runs`), 404, 'errors_list', 'an unknown workflow');
  });
});
