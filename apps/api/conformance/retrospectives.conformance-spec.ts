import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { TestApi, TestOrganization } from '../src/testing';
import { useApiWorld } from '../test/support/api-world';
import { unique as named } from '../test/support/json-api';
import { validateAgainstReference } from '../test/support/openapi-ajv';
import { assertStatus, describeReferenceConformance, INT4_BOUNDED, made, NAMED, REFERENCE } from './support/reference-conformance';

/**
 * The reference conformance of retrospective processes, their steps and groups, the groups' steps,
 * post-mortem templates, retrospective configurations and incidents' retrospective steps
 * (docs/retrospectives.md).
 */

/**
 * A process without steps, so its nested lists hold the suite's records only: made from the
 * starter template, emptied, then copied (a generated `copy_from` cannot name a process).
 */
async function newProcess(api: TestApi, org: TestOrganization): Promise<string> {
  const source = await made(api, org, '/v1/retrospective_processes', 'retrospective_processes', { name: named('Source'), copy_from: 'starter_template' });
  const steps = await api.request('GET', `/v1/retrospective_processes/${source}/retrospective_steps`, { token: org.token });
  for (const { id } of steps.body.data as { id: string }[]) await api.request('DELETE', `/v1/retrospective_steps/${id}`, { token: org.token });
  return made(api, org, '/v1/retrospective_processes', 'retrospective_processes', { name: named('Process'), copy_from: source });
}

const COPY_FROM = "another retrospective process of the organization or 'starter_template'";

describeReferenceConformance({
  type: 'retrospective_processes',
  path: '/v1/retrospective_processes',
  singular: 'retrospective_process',
  // Generated ids would name no record; an empty list of a kind is valid criteria.
  pick: (name) => (name === 'copy_from' ? 'starter_template' : name === 'retrospective_process_matching_criteria' ? { incident_type_ids: [] } : undefined),
  validationGaps: { retrospective_process_matching_criteria: { when: 'null', why: 'a process without criteria answers null; the reference answers an object always and names no value for none' } },
  knownStricter: { ...NAMED, 'copy_from=""': COPY_FROM, 'copy_from=<10000 chars>': COPY_FROM },
});

describeReferenceConformance({
  type: 'retrospective_steps',
  path: '/v1/retrospective_steps',
  singular: 'retrospective_step',
  parent: { singular: 'retrospective_process', path: '/v1/retrospective_processes', collection: '/v1/retrospective_processes/{retrospective_process_id}/retrospective_steps', attribute: 'retrospective_process_id', make: newProcess },
  references: async (api, org) => ({ incident_role_id: await made(api, org, '/v1/incident_roles', 'incident_roles', { name: named('Scribe'), summary: 'Writes' }) }),
  assignedWhenNull: ['position'],
  knownStricter: { 'title=""': 'minLength 1: a step has a title', 'title=<10000 chars>': 'maxLength 255', 'position=-1': 'minimum 0', 'due_after_days=-1': 'minimum 0: days after', ...REFERENCE('incident_role_id', 'an incident role') },
  mayRefuse: { ...INT4_BOUNDED, [`due_after_days=${2 ** 31}`]: 'at most 3650 days', [`due_after_days=${Number.MAX_SAFE_INTEGER}`]: 'at most 3650 days' },
});

describeReferenceConformance({
  type: 'retrospective_process_groups',
  path: '/v1/retrospective_process_groups',
  singular: 'retrospective_process_group',
  parent: { singular: 'retrospective_process', path: '/v1/retrospective_processes', collection: '/v1/retrospective_processes/{retrospective_process_id}/groups', attribute: 'retrospective_process_id', make: newProcess },
  references: async (api, org) => ({ sub_status_id: await made(api, org, '/v1/sub_statuses', 'sub_statuses', { name: named('Reviewing'), parent_status: 'retrospective' }) }),
  knownStricter: { 'position=-1': 'minimum 0', ...REFERENCE('sub_status_id', 'a sub-status') },
  mayRefuse: INT4_BOUNDED,
});

/**
 * The groups' steps by hand: the generated suite's error test needs a required attribute the
 * update takes, and update_retrospective_process_group_step takes position only.
 */
describe('retrospective_process_group_steps conform to the reference', () => {
  const w = useApiWorld();

  test('create, list, get, update and delete answer the reference documents; errors answer errors_list', async () => {
    const process = await newProcess(w.api, w.org);
    const step = (await w.create(`/v1/retrospective_processes/${process}/retrospective_steps`, 'retrospective_steps', { title: named('Step') })).id;
    const subStatus = (await w.create('/v1/sub_statuses', 'sub_statuses', { name: named('Reviewing'), parent_status: 'retrospective' })).id;
    const group = (await w.create(`/v1/retrospective_processes/${process}/groups`, 'retrospective_process_groups', { sub_status_id: subStatus })).id;
    const collection = `/v1/retrospective_process_groups/${group}/steps`;
    const body = { data: { type: 'retrospective_process_group_steps', attributes: { retrospective_step_id: step, position: 2 } } };
    validateAgainstReference('new_retrospective_process_group_step', body, 'request');
    const made = await w.send('POST', collection, body);
    assertStatus(made, 201, `POST ${collection}`);
    validateAgainstReference('retrospective_process_group_step_response', made.body, `POST ${collection} 201`);
    const id = made.body.data.id;
    for (const path of [collection, `${collection}?filter[retrospective_step_id]=${step}&page[size]=1`]) {
      const list = await w.send('GET', path);
      assertStatus(list, 200, `GET ${path}`);
      validateAgainstReference('retrospective_process_group_step_list', list.body, `GET ${path} 200`);
    }
    const one = await w.send('GET', `/v1/retrospective_process_group_steps/${id}`);
    validateAgainstReference('retrospective_process_group_step_response', one.body, 'GET 200');
    const update = { data: { type: 'retrospective_process_group_steps', attributes: { position: 7 } } };
    validateAgainstReference('update_retrospective_process_group_step', update, 'request');
    const changed = await w.send('PUT', `/v1/retrospective_process_group_steps/${id}`, update);
    assertStatus(changed, 200, 'PUT');
    validateAgainstReference('retrospective_process_group_step_response', changed.body, 'PUT 200');
    assert.equal(changed.body.data.attributes.position, 7);
    const wrong = await w.send('POST', collection, { data: { type: 'retrospective_process_group_steps', attributes: { retrospective_step_id: 42 } } });
    assertStatus(wrong, 422, 'POST with a number for retrospective_step_id');
    validateAgainstReference('errors_list', wrong.body, 'POST 422');
    const anonymous = await w.send('GET', collection, undefined, 'not-a-token');
    assertStatus(anonymous, 401, 'GET without a valid token');
    validateAgainstReference('errors_list', anonymous.body, 'GET 401');
    const deleted = await w.send('DELETE', `/v1/retrospective_process_group_steps/${id}`);
    assertStatus(deleted, 200, 'DELETE');
    validateAgainstReference('retrospective_process_group_step_response', deleted.body, 'DELETE 200');
    const gone = await w.send('GET', `/v1/retrospective_process_group_steps/${id}`);
    assertStatus(gone, 404, 'GET after DELETE');
    validateAgainstReference('errors_list', gone.body, 'GET 404');
  });
});

describeReferenceConformance({
  type: 'post_mortem_templates',
  path: '/v1/post_mortem_templates',
  singular: 'post_mortem_template',
  // The request's format is nullable, the answer's is not: null is the default, html.
  assignedWhenNull: ['format'],
  knownStricter: NAMED,
});

/** Configurations by hand: every organization has its two, never created nor deleted (no new_retrospective_configuration). */
describe('retrospective_configurations conform to the reference', () => {
  const w = useApiWorld();

  test('list, get and update answer the reference documents, includes too; errors answer errors_list', async () => {
    const list = await w.send('GET', '/v1/retrospective_configurations?filter[kind]=skip&page[size]=10&page[number]=1');
    assertStatus(list, 200, 'GET list');
    validateAgainstReference('retrospective_configuration_list', list.body, 'GET list 200');
    const id = list.body.data[0].id;
    const severity = (await w.create('/v1/severities', 'severities', { name: named('SEV'), severity: 'critical' })).id;
    const team = (await w.create('/v1/teams', 'groups', { name: named('Team') })).id;
    const update = { data: { type: 'retrospective_configurations', attributes: { severity_ids: [severity], group_ids: [team], incident_type_ids: null } } };
    validateAgainstReference('update_retrospective_configuration', update, 'request');
    const changed = await w.send('PUT', `/v1/retrospective_configurations/${id}`, update);
    assertStatus(changed, 200, 'PUT');
    validateAgainstReference('retrospective_configuration_response', changed.body, 'PUT 200');
    assert.deepEqual([changed.body.data.attributes.severity_ids, changed.body.data.attributes.group_ids, changed.body.data.attributes.incident_type_ids], [[severity], [team], null]);
    for (const include of ['severities', 'groups', 'incident_types']) {
      const one = await w.send('GET', `/v1/retrospective_configurations/${id}?include=${include}`);
      assertStatus(one, 200, `GET include=${include}`);
      validateAgainstReference('retrospective_configuration_response', one.body, `GET include=${include} 200`);
      const all = await w.send('GET', `/v1/retrospective_configurations?include=${include}`);
      validateAgainstReference('retrospective_configuration_list', all.body, `GET list include=${include} 200`);
    }
    const wrong = await w.send('PUT', `/v1/retrospective_configurations/${id}`, { data: { type: 'retrospective_configurations', attributes: { severity_ids: [team] } } });
    assertStatus(wrong, 422, 'PUT naming a team as a severity');
    validateAgainstReference('errors_list', wrong.body, 'PUT 422');
    const missing = await w.send('GET', '/v1/retrospective_configurations/00000000-0000-4000-8000-000000000000');
    assertStatus(missing, 404, 'GET missing');
    validateAgainstReference('errors_list', missing.body, 'GET 404');
  });
});

/** Incidents' steps by hand: copied from the matching process when the incident is created (no create). */
describe('incident_retrospective_steps conform to the reference', () => {
  const w = useApiWorld();

  test('get and update answer the reference documents; errors answer errors_list', async () => {
    await made(w.api, w.org, '/v1/retrospective_processes', 'retrospective_processes', { name: named('Every incident'), copy_from: 'starter_template' });
    const incident = (await w.create('/v1/incidents', 'incidents', { title: named('Outage') })).id;
    const [step] = (await w.send('GET', `/v1/incidents/${incident}/retrospective_steps`)).body.data as { id: string }[];
    const one = await w.send('GET', `/v1/incident_retrospective_steps/${step.id}`);
    assertStatus(one, 200, 'GET');
    validateAgainstReference('incident_retrospective_step_response', one.body, 'GET 200');
    const update = {
      data: { type: 'incident_retrospective_steps', attributes: { title: 'Book the room', description: null, due_date: '2030-01-02T03:04:05Z', position: 3, skippable: true, status: 'skipped' } },
    };
    validateAgainstReference('update_incident_retrospective_step', update, 'request');
    const changed = await w.send('PUT', `/v1/incident_retrospective_steps/${step.id}`, update);
    assertStatus(changed, 200, 'PUT');
    validateAgainstReference('incident_retrospective_step_response', changed.body, 'PUT 200');
    assert.deepEqual([changed.body.data.attributes.status, changed.body.data.attributes.position], ['skipped', 3]);
    const cleared = await w.send('PUT', `/v1/incident_retrospective_steps/${step.id}`, { data: { type: 'incident_retrospective_steps', attributes: { due_date: null, position: null } } });
    assertStatus(cleared, 200, 'PUT nulls');
    validateAgainstReference('incident_retrospective_step_response', cleared.body, 'PUT nulls 200');
    const wrong = await w.send('PUT', `/v1/incident_retrospective_steps/${step.id}`, { data: { type: 'incident_retrospective_steps', attributes: { status: 'done' } } });
    assertStatus(wrong, 422, 'PUT with a status outside the enum');
    validateAgainstReference('errors_list', wrong.body, 'PUT 422');
    const missing = await w.send('GET', '/v1/incident_retrospective_steps/00000000-0000-4000-8000-000000000000');
    assertStatus(missing, 404, 'GET missing');
    validateAgainstReference('errors_list', missing.body, 'GET 404');
  });
});
