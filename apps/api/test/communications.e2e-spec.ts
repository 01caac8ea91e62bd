import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';
import { created, doc, ids, outboxTypes, pointers, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

const NOWHERE = '00000000-0000-4000-8000-000000000000';

/** Incident communications' settings: types, stages, templates, groups (docs/communications.md). */
describe('communications over HTTP', () => {
  const w = useApiWorld();
  const { send } = w;
  const post = async (what: string, attributes: Attributes, token?: string): Promise<Json> => created(await send('POST', `/v1/communications/${what}`, doc(`communications_${what}`, attributes), token));
  const newType = (attributes: Attributes = {}, token?: string) => post('types', { name: unique('Outage'), color: '#ff0000', ...attributes }, token);
  const newStage = (attributes: Attributes = {}, token?: string) => post('stages', { name: unique('Investigating'), ...attributes }, token);
  const patch = (what: string, id: string, attributes: Attributes, token?: string) => send('PATCH', `/v1/communications/${what}/${id}`, doc(`communications_${what}`, attributes), token);
  const make = async (path: string, type: string, attributes: Attributes, token?: string): Promise<string> => (await w.create(path, type, attributes, token)).id;
  const me = async (token?: string): Promise<number> => Number((await send('GET', '/v1/users/me', undefined, token)).body.data.id);

  test('types and stages: created with a slug and the next position, listed by position, filtered, changed with PATCH, deleted', async () => {
    const first = await newType({ name: 'Planned maintenance', description: 'Announced ahead' });
    const second = await newType({ color: null });
    assert.deepEqual([first.attributes.slug, first.attributes.color, first.attributes.description, second.attributes.position > first.attributes.position], ['planned-maintenance', '#ff0000', 'Announced ahead', true]);
    assert.equal(second.attributes.color, null);
    const listed = await send('GET', '/v1/communications/types?page[size]=100');
    assert.deepEqual(ids(listed).slice(-2), [first.id, second.id]);
    assert.deepEqual(ids(await send('GET', '/v1/communications/types?filter[slug]=planned-maintenance')), [first.id]);
    assert.deepEqual(ids(await send('GET', '/v1/communications/types?filter[search]=Announced')), [first.id]);
    assert.equal((await send('GET', '/v1/communications/types/planned-maintenance')).body.data.id, first.id);
    const changed = await patch('types', first.id, { color: '#00ff00', position: 0 });
    assert.deepEqual([changed.status, changed.body.data.attributes.color, changed.body.data.attributes.name], [200, '#00ff00', 'Planned maintenance']);
    assert.equal((await send('PUT', `/v1/communications/types/${first.id}`, doc('communications_types', { color: 'x' }))).status, 405);

    const stage = await newStage({ name: 'Resolved', description: 'All clear', position: 7 });
    assert.deepEqual([stage.attributes.slug, stage.attributes.position, stage.attributes.description], ['resolved', 7, 'All clear']);
    assert.equal((await patch('stages', stage.id, { name: 'Fully resolved' })).body.data.attributes.name, 'Fully resolved');
    for (const [what, id] of [['types', first.id], ['stages', stage.id]]) {
      const gone = await send('DELETE', `/v1/communications/${what}/${id}`);
      assert.deepEqual([gone.status, gone.body.data.id], [200, id]);
      assert.equal((await send('GET', `/v1/communications/${what}/${id}`)).status, 404);
    }
    assert.deepEqual(await outboxTypes(w.api, first.id), ['communications_type.created', 'communications_type.updated', 'communications_type.deleted']);
    assert.deepEqual(await outboxTypes(w.api, stage.id), ['communications_stage.created', 'communications_stage.updated', 'communications_stage.deleted']);
  });

  test('bad input is a 422 naming the field, nothing written', async () => {
    const before = (await send('GET', '/v1/communications/types?page[size]=1')).body.meta.total_count;
    for (const [attributes, pointer] of [
      [{ color: '#fff' }, 'name'],
      [{ name: '' , color: '#fff' }, 'name'],
      [{ name: 'x' }, 'color'],
      [{ name: 'x', color: '#fff', position: -1 }, 'position'],
      [{ name: 'x', color: '#fff', shade: 'dark' }, 'shade'],
    ] as [Attributes, string][]) {
      const res = await send('POST', '/v1/communications/types', doc('communications_types', attributes));
      assert.deepEqual([res.status, pointers(res)], [422, [`/data/attributes/${pointer}`]], JSON.stringify(attributes));
    }
    assert.equal((await send('GET', '/v1/communications/types?page[size]=1')).body.meta.total_count, before);
    const noType = await send('POST', '/v1/communications/templates', doc('communications_templates', { name: 'x' }));
    assert.deepEqual([noType.status, pointers(noType)], [422, ['/data/attributes/communication_type_id']]);
  });

  test('a template: of a type, with contents per stage (swagger and Terraform forms), answered nested; names follow renames; an update replaces the stages', async () => {
    const type = await newType({ name: unique('Outage') });
    const [investigating, resolved] = [await newStage({ name: unique('Investigating') }), await newStage({ name: unique('Resolved') })];
    const template = await post('templates', {
      name: 'Outage notice',
      communication_type_id: type.id,
      communication_template_stages_attributes: [{ communication_stage_id: investigating.id, sms_content: 'We are looking', email_subject: 'Investigating' }],
    });
    const a = template.attributes;
    assert.deepEqual([a.slug, a.communication_type_id, a.communication_type], ['outage-notice', type.id, { id: type.id, name: type.attributes.name }]);
    assert.equal(a.communication_template_stages.length, 1);
    const [stage] = a.communication_template_stages;
    assert.equal(stage.data.type, 'communications_template_stages');
    assert.deepEqual(
      [stage.data.attributes.sms_content, stage.data.attributes.email_subject, stage.data.attributes.email_body, stage.data.attributes.communication_stage, stage.data.attributes.communication_template],
      ['We are looking', 'Investigating', null, { id: investigating.id, name: investigating.attributes.name }, { id: template.id, name: 'Outage notice' }],
    );
    assert.deepEqual(ids(await send('GET', `/v1/communications/templates?filter[communication_type_id]=${type.id}`)), [template.id]);

    // The Terraform provider's flat form: "" for what is unset, the kept stage by its id.
    const tf = await patch('templates', template.id, {
      communication_template_stages: [
        { id: stage.data.id, communication_stage_id: investigating.id, sms_content: 'Still looking', email_subject: '', email_body: '', slack_content: '' },
        { id: '', communication_stage_id: resolved.id, sms_content: 'Fixed', email_subject: '', email_body: '', slack_content: '' },
      ],
    });
    assert.equal(tf.status, 200);
    const stages = tf.body.data.attributes.communication_template_stages;
    assert.deepEqual(stages.map((s: Json) => [s.data.attributes.communication_stage.id, s.data.attributes.sms_content]), [[investigating.id, 'Still looking'], [resolved.id, 'Fixed']]);
    assert.equal(stages[0].data.id, stage.data.id);

    // Renames show where the names are answered, each template write with its event.
    await patch('stages', resolved.id, { name: 'All clear' });
    await patch('types', type.id, { name: 'Major outage' });
    const renamed = (await send('GET', `/v1/communications/templates/${template.id}`)).body.data.attributes;
    assert.deepEqual([renamed.communication_type.name, renamed.communication_template_stages[1].data.attributes.communication_stage.name], ['Major outage', 'All clear'], 'the template is rewritten by the renames themselves');
    await patch('templates', template.id, { name: 'Major outage notice' });
    const got = (await send('GET', `/v1/communications/templates/${template.id}`)).body.data.attributes;
    assert.deepEqual(got.communication_type, { id: type.id, name: 'Major outage' });
    assert.equal(got.communication_template_stages[1].data.attributes.communication_stage.name, 'All clear');
    assert.deepEqual(got.communication_template_stages.map((s: Json) => s.data.attributes.communication_template.name), ['Major outage notice', 'Major outage notice']);

    // An update replaces the stages: the ones left out go.
    const replaced = await patch('templates', template.id, { communication_template_stages_attributes: [{ id: stage.data.id, email_body: 'Details' }] });
    assert.deepEqual(replaced.body.data.attributes.communication_template_stages.map((s: Json) => [s.data.id, s.data.attributes.sms_content, s.data.attributes.email_body]), [[stage.data.id, 'Still looking', 'Details']]);
    assert.deepEqual(await outboxTypes(w.api, template.id), Array(6).fill('communications_template.updated').fill('communications_template.created', 0, 1));

    // A stage or type in use is not deleted; once the template goes, they are.
    assert.equal((await send('DELETE', `/v1/communications/stages/${investigating.id}`)).status, 409);
    assert.equal((await send('DELETE', `/v1/communications/types/${type.id}`)).status, 409);
    assert.equal((await send('DELETE', `/v1/communications/templates/${template.id}`)).status, 200);
    assert.equal((await send('DELETE', `/v1/communications/stages/${investigating.id}`)).status, 200);
    assert.equal((await send('DELETE', `/v1/communications/types/${type.id}`)).status, 200);
  });

  test("a template's type and stages are the organization's: unknown or another organization's are a 422 at the member, nothing written", async () => {
    const [type, stage] = [await newType(), await newStage()];
    const [theirType, theirStage] = [await newType({}, w.other.token), await newStage({}, w.other.token)];
    const template = await post('templates', { name: unique('Notice'), communication_type_id: type.id });
    assert.deepEqual(template.attributes.communication_template_stages, []);
    for (const [attributes, pointer] of [
      [{ communication_type_id: theirType.id }, 'communication_type_id'],
      [{ communication_type_id: NOWHERE }, 'communication_type_id'],
      [{ communication_template_stages_attributes: [{ communication_stage_id: stage.id }, { communication_stage_id: theirStage.id }] }, 'communication_template_stages_attributes/1/communication_stage_id'],
      [{ communication_template_stages: [{ communication_stage_id: NOWHERE }] }, 'communication_template_stages/0/communication_stage_id'],
      [{ communication_template_stages_attributes: [{ communication_stage_id: stage.id }, { communication_stage_id: stage.id }] }, 'communication_template_stages_attributes/1/communication_stage_id'],
      [{ communication_template_stages_attributes: [{ id: NOWHERE, sms_content: 'x' }] }, 'communication_template_stages_attributes/0/id'],
      [{ communication_template_stages_attributes: [{ sms_content: 'x' }] }, 'communication_template_stages_attributes/0/communication_stage_id'],
      [{ communication_template_stages_attributes: [], communication_template_stages: [] }, 'communication_template_stages'],
    ] as [Attributes, string][]) {
      const res = await patch('templates', template.id, attributes);
      assert.deepEqual([res.status, pointers(res)], [422, [`/data/attributes/${pointer}`]], JSON.stringify(attributes));
    }
    const create = await send('POST', '/v1/communications/templates', doc('communications_templates', { name: 'x', communication_type_id: theirType.id }));
    assert.deepEqual([create.status, pointers(create)], [422, ['/data/attributes/communication_type_id']]);
    const kept = (await send('GET', `/v1/communications/templates/${template.id}`)).body.data.attributes;
    assert.deepEqual([kept.communication_type_id, kept.communication_template_stages], [type.id, []]);
  });

  test('a group: members, conditions and external members in the swagger form and the Terraform form, answered both ways; an update replaces them', async () => {
    const type = await newType();
    const user = await me();
    const service = await make('/v1/services', 'services', { name: unique('Payments') });
    const team = await make('/v1/teams', 'groups', { name: unique('SRE') });
    const group = await post('groups', {
      name: 'Executives',
      communication_type_id: type.id,
      email_channel: true,
      member_ids: [user],
      slack_channel_ids: ['C123'],
      communication_group_conditions: [{ property_type: 'service', service_ids: [service] }],
      communication_external_group_members: [{ name: 'Ada', email: 'ada@example.com' }],
    });
    const a = group.attributes;
    assert.deepEqual([a.slug, a.is_private, a.condition_type, a.sms_channel, a.email_channel, a.member_ids, a.slack_channel_ids], ['executives', false, 'any', false, true, [user], ['C123']]);
    assert.deepEqual(a.communication_group_members.map((m: Json) => m.user_id), [user]);
    assert.deepEqual([a.communication_group_conditions[0].property_type, a.communication_group_conditions[0].service_ids, a.communication_group_conditions[0].properties], ['service', [service], [{ id: service }]]);
    assert.deepEqual([a.communication_external_group_members[0].email, a.communication_external_group_members[0].phone_number, typeof a.communication_external_group_members[0].id], ['ada@example.com', null, 'string']);

    // The Terraform provider's form: members as {id, user_id}, conditions by properties, "" for unset.
    const tf = await patch('groups', group.id, {
      condition_type: 'all',
      communication_group_members: [{ id: a.communication_group_members[0].id, user_id: user }],
      communication_group_conditions: [{ id: a.communication_group_conditions[0].id, condition: '', property_type: 'group', properties: [{ id: team }] }],
      communication_external_group_members: [{ id: '', name: '', email: '', phone_number: '+15555550100' }],
    });
    assert.equal(tf.status, 200);
    const b = tf.body.data.attributes;
    assert.deepEqual([b.condition_type, b.member_ids, b.communication_group_members], ['all', [user], a.communication_group_members]);
    assert.deepEqual(b.communication_group_conditions, [{ id: a.communication_group_conditions[0].id, property_type: 'group', condition: null, properties: [{ id: team }], group_ids: [team] }]);
    assert.deepEqual(b.communication_external_group_members.map((m: Json) => [m.name, m.email, m.phone_number]), [[null, null, '+15555550100']]);
    assert.deepEqual(ids(await send('GET', `/v1/communications/groups?filter[condition_type]=all&filter[communication_type_id]=${type.id}`)), [group.id]);
    assert.deepEqual(ids(await send('GET', `/v1/communications/groups?filter[is_private]=true&filter[communication_type_id]=${type.id}`)), []);

    const cleared = await patch('groups', group.id, { member_ids: [], communication_group_conditions: null });
    assert.deepEqual([cleared.body.data.attributes.member_ids, cleared.body.data.attributes.communication_group_members, cleared.body.data.attributes.communication_group_conditions], [[], [], []]);
    assert.equal((await send('DELETE', `/v1/communications/groups/${group.id}`)).status, 200);
    assert.deepEqual(await outboxTypes(w.api, group.id), ['communications_group.created', 'communications_group.updated', 'communications_group.updated', 'communications_group.deleted']);
  });

  test("a group's type, users and condition records are the organization's: unknown or another organization's are a 422 at the member, nothing written", async () => {
    const type = await newType();
    const theirType = await newType({}, w.other.token);
    const theirUser = await me(w.other.token);
    const service = await make('/v1/services', 'services', { name: unique('Payments') });
    const theirs = {
      service: await make('/v1/services', 'services', { name: unique('Payments') }, w.other.token),
      severity: await make('/v1/severities', 'severities', { name: unique('SEV'), severity: 'critical' }, w.other.token),
      functionality: await make('/v1/functionalities', 'functionalities', { name: unique('Checkout') }, w.other.token),
      group: await make('/v1/teams', 'groups', { name: unique('SRE') }, w.other.token),
      incident_type: await make('/v1/incident_types', 'incident_types', { name: unique('Outage') }, w.other.token),
    };
    const group = await post('groups', { name: unique('Stakeholders'), communication_type_id: type.id, member_ids: [await me()] });
    const cases: [Attributes, string][] = [
      [{ communication_type_id: theirType.id }, 'communication_type_id'],
      [{ member_ids: [await me(), theirUser] }, 'member_ids/1'],
      [{ communication_group_members: [{ user_id: 999999 }] }, 'communication_group_members/0/user_id'],
      [{ member_ids: [], communication_group_members: [] }, 'communication_group_members'],
      [{ communication_group_conditions: [{ service_ids: [service] }] }, 'communication_group_conditions/0/property_type'],
      [{ communication_group_conditions: [{ property_type: 'severity', service_ids: [service] }] }, 'communication_group_conditions/0/service_ids'],
      [{ communication_group_conditions: [{ property_type: 'service', properties: [{ id: service }, { id: NOWHERE }] }] }, 'communication_group_conditions/0/properties/1/id'],
      [{ communication_group_conditions: [{ property_type: 'sla' }] }, 'communication_group_conditions/0/property_type'],
      [{ communication_external_group_members: [{ name: 'Nobody' }] }, 'communication_external_group_members/0'],
      [{ communication_external_group_members: [{ email: 'not-an-email' }] }, 'communication_external_group_members/0/email'],
      [{ condition_type: 'some' }, 'condition_type'],
      ...Object.entries(theirs).map(([kind, id]): [Attributes, string] => [{ communication_group_conditions: [{ property_type: kind, [`${kind}_ids`]: [id] }] }, `communication_group_conditions/0/${kind}_ids/0`]),
    ];
    for (const [attributes, pointer] of cases) {
      const res = await patch('groups', group.id, attributes);
      assert.deepEqual([res.status, pointers(res)], [422, [`/data/attributes/${pointer}`]], JSON.stringify(attributes));
    }
    const create = await send('POST', '/v1/communications/groups', doc('communications_groups', { name: 'x', communication_type_id: NOWHERE }));
    assert.deepEqual([create.status, pointers(create)], [422, ['/data/attributes/communication_type_id']]);
    const kept = (await send('GET', `/v1/communications/groups/${group.id}`)).body.data.attributes;
    assert.deepEqual([kept.communication_type_id, kept.member_ids, kept.communication_group_conditions], [type.id, [await me()], null]);
  });

  test("the communication permission family guards them; another organization's records answer 404 and never show in its lists", async () => {
    const type = await newType();
    const keyWith = async (permissions: Attributes) => w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: await make('/v1/roles', 'roles', { name: unique('Limited'), ...permissions }) });
    const sender = await keyWith({ incident_communication_permissions: ['create', 'read', 'update', 'delete', 'send'] });
    for (const [method, path, body] of [
      ['GET', '/v1/communications/types'],
      ['GET', `/v1/communications/types/${type.id}`],
      ['POST', '/v1/communications/stages', doc('communications_stages', { name: 'x' })],
      ['PATCH', `/v1/communications/types/${type.id}`, doc('communications_types', { name: 'x' })],
      ['DELETE', `/v1/communications/types/${type.id}`],
    ] as [string, string, unknown?][]) {
      assert.equal((await send(method, path, body, sender)).status, 403, `${method} ${path}`);
    }
    const reader = await keyWith({ communication_permissions: ['read'] });
    assert.equal((await send('GET', `/v1/communications/types/${type.id}`, undefined, reader)).status, 200);
    assert.equal((await send('POST', '/v1/communications/groups', doc('communications_groups', { name: 'x', communication_type_id: type.id }), reader)).status, 403);

    const records = {
      types: type.id,
      stages: (await newStage()).id,
      templates: (await post('templates', { name: unique('T'), communication_type_id: type.id })).id,
      groups: (await post('groups', { name: unique('G'), communication_type_id: type.id })).id,
    };
    for (const [what, id] of Object.entries(records)) {
      for (const [method, body] of [['GET'], ['PATCH', doc(`communications_${what}`, { name: 'x' })], ['DELETE']] as [string, unknown?][]) {
        assert.equal((await send(method, `/v1/communications/${what}/${id}`, body, w.other.token)).status, 404, `${method} ${what}`);
      }
      assert.ok(!ids(await send('GET', `/v1/communications/${what}?page[size]=100`, undefined, w.other.token)).includes(id), what);
      assert.equal((await send('GET', `/v1/communications/${what}/${id}`)).body.data.attributes.name === 'x', false, what);
    }
  });
});
