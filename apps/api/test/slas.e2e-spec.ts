import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { TestResponse } from '../src/testing';
import { useApiWorld } from './support/api-world';
import { created, doc, ids, outboxTypes, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

const NOWHERE = '00000000-0000-4000-8000-000000000000';

/** Follow-up SLAs: managers, deadlines, conditions and notification configurations (docs/slas.md). */
describe('SLAs over HTTP', () => {
  const w = useApiWorld();
  const { send } = w;
  const make = async (path: string, type: string, attributes: Attributes, token?: string): Promise<string> => (await w.create(path, type, attributes, token)).id;
  const newRole = (token?: string) => make('/v1/incident_roles', 'incident_roles', { name: unique('Commander'), summary: 'Leads' }, token);
  const newSubStatus = (parent_status: 'started' | 'retrospective', token?: string) => make('/v1/sub_statuses', 'sub_statuses', { name: unique('Phase'), parent_status }, token);
  const newField = (token?: string) => make('/v1/form_fields', 'form_fields', { name: unique('Field'), kind: 'custom' }, token);
  const deadlines: Attributes = { assignment_deadline_days: 2, assignment_deadline_parent_status: 'started', completion_deadline_days: 14, completion_deadline_parent_status: 'resolved' };
  const slaDoc = (attributes: Attributes = {}) => doc('slas', { name: unique('Follow-ups'), ...deadlines, ...attributes });
  const newSla = async (attributes: Attributes = {}, token?: string): Promise<Json> => created(await send('POST', '/v1/slas', slaDoc(attributes), token));
  const count = async (): Promise<number> => (await send('GET', '/v1/slas?page[size]=1')).body.meta.total_count;
  const refused = (res: TestResponse, ...expected: string[]) => {
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.deepEqual(pointers(res), expected.map((p) => `/data/attributes/${p}`));
  };
  /** Every write refused, and nothing written. */
  const allRefused = async (cases: [Attributes, ...string[]][], write: (attributes: Attributes) => Promise<TestResponse>) => {
    const before = await count();
    for (const [attributes, ...expected] of cases) refused(await write(attributes), ...expected);
    assert.equal(await count(), before);
  };

  test('an SLA: created with its deadlines, conditions and notifications, read, listed, changed by PUT and PATCH, deleted', async () => {
    const role = await newRole();
    const field = await newField();
    const sla = await newSla({
      name: 'Customer follow-ups',
      description: 'Action items of customer-facing incidents',
      manager_role_id: role,
      condition_match_type: 'ANY',
      conditions: [
        { conditionable_type: 'SLAs::BuiltInFieldCondition', property: 'status', operator: 'is', values: ['resolved', 'closed'] },
        { conditionable_type: 'SLAs::CustomFieldCondition', form_field_id: field, operator: 'is_set', position: 9 },
      ],
      notification_configurations: [{ offset_type: 'before_due', offset_days: 1 }, { offset_type: 'when_due', offset_days: 0 }],
    });
    const a = sla.attributes;
    assert.deepEqual(
      [a.slug, a.entity_type, a.condition_match_type, a.manager_role_id, a.manager_user_id, a.assignment_skip_weekends, a.completion_skip_weekends, typeof a.position],
      ['customer-follow-ups', 'follow_up', 'ANY', role, null, false, false, 'number'],
    );
    assert.deepEqual(a.conditions.map((c: Json) => [c.property ?? c.form_field_id, c.position, typeof c.id]), [['status', 1, 'string'], [field, 9, 'string']]);
    assert.deepEqual(a.notification_configurations.map((n: Json) => [n.offset_type, n.offset_days, typeof n.id, n.created_at === a.created_at]), [['before_due', 1, 'string', true], ['when_due', 0, 'string', true]]);
    assert.deepEqual((await send('GET', `/v1/slas/${sla.id}`)).body.data.attributes, a);
    assert.equal((await send('GET', '/v1/slas/customer-follow-ups')).body.data.id, sla.id);
    assert.deepEqual(ids(await send('GET', `/v1/slas?filter[name]=${encodeURIComponent('Customer follow-ups')}`)), [sla.id]);
    assert.ok(ids(await send('GET', '/v1/slas?page[size]=100')).includes(sla.id));

    const put = await send('PUT', `/v1/slas/${sla.id}`, doc('slas', { completion_deadline_days: 30, completion_skip_weekends: true, conditions: [] }));
    assert.deepEqual([put.status, put.body.data.attributes.completion_deadline_days, put.body.data.attributes.completion_skip_weekends, put.body.data.attributes.conditions], [200, 30, true, []]);
    const patch = await send('PATCH', `/v1/slas/${sla.id}`, doc('slas', { notification_configurations: [{ offset_type: 'after_due', offset_days: 3 }] }));
    assert.equal(patch.status, 200);
    const [replaced] = patch.body.data.attributes.notification_configurations;
    assert.deepEqual([replaced.offset_type, replaced.offset_days, patch.body.data.attributes.notification_configurations.length], ['after_due', 3, 1]);
    assert.ok(!a.notification_configurations.some((n: Json) => n.id === replaced.id), 'a replaced configuration is a new one');
    assert.equal(patch.body.data.attributes.completion_deadline_days, 30);

    assert.equal((await send('DELETE', `/v1/slas/${sla.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/slas/${sla.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, sla.id), ['sla.created', 'sla.updated', 'sla.updated', 'sla.deleted']);
  });

  test('the manager: one incident role or one user of the organization; none names the calling user; nulls keep it', async () => {
    const owner = String((await send('GET', '/v1/users/me')).body.data.id);
    const mine = await newSla();
    assert.deepEqual([mine.attributes.manager_role_id, String(mine.attributes.manager_user_id)], [null, owner]);
    const role = await newRole();
    const toRole = await send('PATCH', `/v1/slas/${mine.id}`, doc('slas', { manager_role_id: role }));
    assert.deepEqual([toRole.body.data.attributes.manager_role_id, toRole.body.data.attributes.manager_user_id], [role, null]);
    const nulls = await send('PUT', `/v1/slas/${mine.id}`, doc('slas', { manager_role_id: null, manager_user_id: null }));
    assert.deepEqual([nulls.status, nulls.body.data.attributes.manager_role_id], [200, role]);
    const toUser = await send('PUT', `/v1/slas/${mine.id}`, doc('slas', { manager_user_id: Number(owner) }));
    assert.deepEqual([toUser.body.data.attributes.manager_role_id, String(toUser.body.data.attributes.manager_user_id)], [null, owner]);

    const theirUser = (await send('GET', '/v1/users/me', undefined, w.other.token)).body.data.id;
    await allRefused(
      [
        [{ manager_role_id: role, manager_user_id: Number(owner) }, 'manager_user_id'],
        [{ manager_role_id: NOWHERE }, 'manager_role_id'],
        [{ manager_role_id: await newRole(w.other.token) }, 'manager_role_id'],
        [{ manager_user_id: 987654 }, 'manager_user_id'],
        [{ manager_user_id: Number(theirUser) }, 'manager_user_id'],
      ],
      (attributes) => send('POST', '/v1/slas', slaDoc(attributes)),
    );
    const both = await send('PATCH', `/v1/slas/${mine.id}`, doc('slas', { manager_role_id: role, manager_user_id: Number(owner) }));
    refused(both, 'manager_user_id');
    const keyWithoutUser = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: await roleWith({ slas_permissions: ['create', 'read', 'update', 'delete'] }) });
    refused(await send('POST', '/v1/slas', slaDoc(), keyWithoutUser), 'manager_user_id');
    assert.equal((await send('POST', '/v1/slas', slaDoc({ manager_role_id: role }), keyWithoutUser)).status, 201);
    assert.equal(String((await send('GET', `/v1/slas/${mine.id}`)).body.data.attributes.manager_user_id), owner);
  });

  test('deadline sub-statuses: of the organization, refining the parent status (started; resolved for a retrospective one)', async () => {
    const [started, retrospective] = [await newSubStatus('started'), await newSubStatus('retrospective')];
    const sla = await newSla({ assignment_deadline_sub_status_id: started, completion_deadline_sub_status_id: retrospective });
    assert.deepEqual([sla.attributes.assignment_deadline_sub_status_id, sla.attributes.completion_deadline_sub_status_id], [started, retrospective]);
    await allRefused(
      [
        [{ assignment_deadline_sub_status_id: NOWHERE }, 'assignment_deadline_sub_status_id'],
        [{ completion_deadline_sub_status_id: await newSubStatus('retrospective', w.other.token) }, 'completion_deadline_sub_status_id'],
        [{ assignment_deadline_sub_status_id: retrospective }, 'assignment_deadline_sub_status_id'],
        [{ completion_deadline_sub_status_id: started }, 'completion_deadline_sub_status_id'],
        [{ assignment_deadline_parent_status: 'mitigated', assignment_deadline_sub_status_id: started }, 'assignment_deadline_sub_status_id'],
        [{ assignment_deadline_days: 8 }, 'assignment_deadline_days'],
        [{ completion_deadline_parent_status: 'detected' }, 'completion_deadline_parent_status'],
      ],
      (attributes) => send('POST', '/v1/slas', slaDoc(attributes)),
    );
    // Changing the parent status alone is checked against the stored sub-status.
    refused(await send('PUT', `/v1/slas/${sla.id}`, doc('slas', { completion_deadline_parent_status: 'closed' })), 'completion_deadline_sub_status_id');
    const cleared = await send('PUT', `/v1/slas/${sla.id}`, doc('slas', { completion_deadline_parent_status: 'closed', completion_deadline_sub_status_id: null }));
    assert.deepEqual([cleared.status, cleared.body.data.attributes.completion_deadline_parent_status], [200, 'closed']);
  });

  test('conditions: at most 20, each of its type and property, custom ones naming a form field of the organization, status and sub_status values checked', async () => {
    const field = await newField();
    const subStatus = await newSubStatus('started');
    const builtIn = (attributes: Attributes = {}) => ({ conditionable_type: 'SLAs::BuiltInFieldCondition', property: 'severity', operator: 'is', values: ['sev0'], ...attributes });
    const custom = (attributes: Attributes = {}) => ({ conditionable_type: 'SLAs::CustomFieldCondition', form_field_id: field, operator: 'is', values: ['yes'], ...attributes });
    const sla = await newSla({ conditions: [builtIn(), custom(), builtIn({ property: 'sub_status', values: [subStatus] }), builtIn({ property: 'status', values: ['started'] })] });
    assert.equal(sla.attributes.conditions.length, 4);
    assert.equal((await newSla({ conditions: Array.from({ length: 20 }, () => builtIn()) })).attributes.conditions.length, 20);
    await allRefused(
      [
        [{ conditions: Array.from({ length: 21 }, () => builtIn()) }, 'conditions'],
        [{ conditions: [builtIn(), builtIn({ conditionable_type: 'SLAs::Other' })] }, 'conditions/1/conditionable_type'],
        [{ conditions: [builtIn({ property: 'weather' })] }, 'conditions/0/property'],
        [{ conditions: [builtIn({ property: null })] }, 'conditions/0/property'],
        [{ conditions: [builtIn({ form_field_id: field })] }, 'conditions/0/form_field_id'],
        [{ conditions: [builtIn(), custom({ form_field_id: null })] }, 'conditions/1/form_field_id'],
        [{ conditions: [custom({ form_field_id: NOWHERE })] }, 'conditions/0/form_field_id'],
        [{ conditions: [custom({ form_field_id: await newField(w.other.token) })] }, 'conditions/0/form_field_id'],
        [{ conditions: [custom({ property: 'severity' })] }, 'conditions/0/property'],
        [{ conditions: [builtIn({ property: 'status', values: ['started', 'sleeping'] })] }, 'conditions/0/values/1'],
        [{ conditions: [builtIn({ property: 'sub_status', values: [await newSubStatus('started', w.other.token)] })] }, 'conditions/0/values/0'],
        [{ conditions: [{ conditionable_type: 'SLAs::BuiltInFieldCondition', property: 'severity' }] }, 'conditions/0/operator'],
      ],
      (attributes) => send('POST', '/v1/slas', slaDoc(attributes)),
    );
    refused(await send('PUT', `/v1/slas/${sla.id}`, doc('slas', { conditions: [custom({ form_field_id: NOWHERE })] })), 'conditions/0/form_field_id');
    assert.equal((await send('GET', `/v1/slas/${sla.id}`)).body.data.attributes.conditions.length, 4);
  });

  test('notification configurations: at most 20, a known offset type, days from 0, exactly 0 when due', async () => {
    const at = (offset_type: string, offset_days: unknown) => ({ offset_type, offset_days });
    assert.equal((await newSla({ notification_configurations: Array.from({ length: 20 }, (_, i) => at('after_due', i)) })).attributes.notification_configurations.length, 20);
    await allRefused(
      [
        [{ notification_configurations: Array.from({ length: 21 }, () => at('before_due', 1)) }, 'notification_configurations'],
        [{ notification_configurations: [at('before_due', 1), at('when_due', 2)] }, 'notification_configurations/1/offset_days'],
        [{ notification_configurations: [at('someday', 1)] }, 'notification_configurations/0/offset_type'],
        [{ notification_configurations: [at('after_due', -1)] }, 'notification_configurations/0/offset_days'],
        [{ notification_configurations: [{ offset_type: 'before_due' }] }, 'notification_configurations/0/offset_days'],
      ],
      (attributes) => send('POST', '/v1/slas', slaDoc(attributes)),
    );
  });

  const roleWith = async (permissions: Attributes) => make('/v1/roles', 'roles', { name: unique('Limited'), ...permissions });

  test('a caller without the slas permission family is refused (403); a read-only one reads', async () => {
    const sla = await newSla();
    const without = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: await roleWith({ incidents_permissions: ['create', 'read', 'update', 'delete'] }) });
    for (const [method, path, body] of [
      ['GET', '/v1/slas'],
      ['GET', `/v1/slas/${sla.id}`],
      ['POST', '/v1/slas', slaDoc()],
      ['PUT', `/v1/slas/${sla.id}`, doc('slas', { name: 'x' })],
      ['PATCH', `/v1/slas/${sla.id}`, doc('slas', { name: 'x' })],
      ['DELETE', `/v1/slas/${sla.id}`],
    ] as [string, string, unknown?][]) {
      assert.equal((await send(method, path, body, without)).status, 403, `${method} ${path}`);
    }
    const reader = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: await roleWith({ slas_permissions: ['read'] }) });
    assert.equal((await send('GET', `/v1/slas/${sla.id}`, undefined, reader)).status, 200);
    assert.equal((await send('DELETE', `/v1/slas/${sla.id}`, undefined, reader)).status, 403);
    assert.equal((await send('GET', `/v1/slas/${sla.id}`)).status, 200);
  });

  test("another organization's SLAs answer 404 and never show in its lists", async () => {
    const sla = await newSla();
    const theirs = (method: string, path: string, body?: unknown) => send(method, path, body, w.other.token);
    for (const [method, body] of [['GET'], ['PUT', doc('slas', { name: 'x' })], ['PATCH', doc('slas', { name: 'x' })], ['DELETE']] as [string, unknown?][]) {
      assert.equal((await theirs(method, `/v1/slas/${sla.id}`, body)).status, 404, method);
    }
    assert.equal((await theirs('GET', `/v1/slas/${sla.attributes.slug}`)).status, 404);
    assert.ok(!ids(await theirs('GET', '/v1/slas?page[size]=100')).includes(sla.id));
    assert.equal((await send('GET', `/v1/slas/${sla.id}`)).body.data.attributes.name, sla.attributes.name);
  });
});
