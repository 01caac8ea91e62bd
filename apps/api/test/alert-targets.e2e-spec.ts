import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@taproot/messaging';
import { startTestApi, type TestApi, type TestOrganization } from '../src/testing';
import { newAlertSource, postInbound, signedBy } from './support/alert-sources';

type Attributes = Record<string, unknown>;
const doc = (attributes: Attributes, type = 'alerts') => ({ data: { type, attributes } });

/**
 * An alert's notification targets and related ids must be records of the caller's organization
 * (docs/alerts.md): 422 naming the exact attribute or element, nothing stored; alerts through an
 * alert source leave an unknown target out instead.
 */
describe('alert notification targets and related ids', () => {
  let api: TestApi;
  let org: TestOrganization;
  let other: TestOrganization;
  const mine = { user: '', group: '', service: '', environment: '', functionality: '' };
  const theirs = { user: '', group: '', service: '' };
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
    other = await api.newOrganization();
    const make = async (path: string, type: string, token: string) => {
      const res = await api.request('POST', path, { token, body: doc({ name: `${type} ${randomUUID().slice(0, 8)}` }, type) });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body.data.id as string;
    };
    mine.user = String(await api.addUser(org.organizationId, { roleKind: 'user' }));
    mine.group = await make('/v1/teams', 'groups', org.token);
    mine.service = await make('/v1/services', 'services', org.token);
    mine.environment = await make('/v1/environments', 'environments', org.token);
    mine.functionality = await make('/v1/functionalities', 'functionalities', org.token);
    theirs.user = String(await api.addUser(other.organizationId, { roleKind: 'user' }));
    theirs.group = await make('/v1/teams', 'groups', other.token);
    theirs.service = await make('/v1/services', 'services', other.token);
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown, token = org.token) => api.request(method, path, { token, body });
  const count = async () => (await api.runtime.dataSource.query('SELECT count(*)::int AS n FROM alerts WHERE organization_id = $1', [org.organizationId]))[0].n as number;
  /** A refused create: 422, one error per offending attribute (pointer, detail naming it), and no alert stored. */
  const refused = async (attributes: Attributes, errors: [pointer: string, detail: RegExp][]) => {
    const before = await count();
    const res = await send('POST', '/v1/alerts', doc({ summary: 'refused', ...attributes }));
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer),
      errors.map(([pointer]) => `/data/attributes/${pointer}`),
    );
    errors.forEach(([, detail], i) => assert.match(res.body.errors[i].detail, detail));
    assert.equal(await count(), before, 'nothing stored');
  };

  test('each notification target type names a record of the organization: the alert pages it', async () => {
    for (const [type, id] of [
      ['User', mine.user],
      ['Group', mine.group],
      ['Service', mine.service],
      ['Functionality', mine.functionality],
    ]) {
      const res = await send('POST', '/v1/alerts', doc({ summary: type, notification_target_type: type, notification_target_id: id }));
      assert.equal(res.status, 201, `${type}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.data.attributes.status, 'triggered');
      assert.equal(res.body.data.attributes.notification_target_id, id);
    }
    const many = await send('POST', '/v1/alerts', doc({ summary: 'many', notification_targets: [{ type: 'User', id: mine.user }, { type: 'Group', id: mine.group }] }));
    assert.equal(many.status, 201, JSON.stringify(many.body));
  });

  test('an unknown or foreign target, or half a pair, is a 422 naming it', async () => {
    await refused({ notification_target_type: 'User', notification_target_id: theirs.user }, [['notification_target_id', new RegExp(`^notification_target_id: ${theirs.user} is not a user of this organization`)]]);
    await refused({ notification_target_type: 'User', notification_target_id: 'abc' }, [['notification_target_id', /is not a user/]]);
    await refused({ notification_target_type: 'Group', notification_target_id: theirs.group }, [['notification_target_id', /is not a group/]]);
    await refused({ notification_target_type: 'Service', notification_target_id: mine.group }, [['notification_target_id', /is not a service/]]);
    await refused({ notification_target_type: 'Functionality', notification_target_id: randomUUID() }, [['notification_target_id', /is not a functionality/]]);
    // No escalation policy exists yet: every id is unknown.
    await refused({ notification_target_type: 'EscalationPolicy', notification_target_id: randomUUID() }, [['notification_target_id', /is not an escalation policy of this organization/]]);
    await refused({ notification_target_type: 'User' }, [['notification_target_id', /^notification_target_id: required with notification_target_type/]]);
    await refused({ notification_target_id: mine.user }, [['notification_target_type', /^notification_target_type: required with notification_target_id/]]);
  });

  test('each entry of notification_targets is checked: the pointer names the element', async () => {
    await refused({ notification_targets: [{ type: 'User', id: mine.user }, { type: 'Service', id: theirs.service }] }, [['notification_targets/1/id', /^notification_targets\[1\]\.id: .* is not a service/]]);
    await refused({ notification_targets: [{ type: 'Group' }] }, [['notification_targets/0/id', /^notification_targets\[0\]\.id: required with notification_targets\[0\]\.type/]]);
    await refused({ notification_targets: [{ id: mine.user }] }, [['notification_targets/0/type', /required with/]]);
  });

  test('service, group, environment and functionality ids must be records of the organization; ids are stored lower-cased, once', async () => {
    await refused(
      { service_ids: [mine.service, theirs.service], group_ids: [theirs.group], environment_ids: ['nope'], functionality_ids: [mine.service] },
      [
        ['service_ids/1', new RegExp(`^service_ids\\[1\\]: ${theirs.service} is not a service`)],
        ['group_ids/0', /is not a group/],
        ['environment_ids/0', /^environment_ids\[0\]: nope is not an environment/],
        ['functionality_ids/0', /is not a functionality/],
      ],
    );
    const ok = await send('POST', '/v1/alerts', doc({ summary: 'ids', service_ids: [mine.service.toUpperCase(), mine.service], group_ids: [mine.group], environment_ids: [mine.environment], functionality_ids: [mine.functionality] }));
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.deepEqual(ok.body.data.attributes.service_ids, [mine.service]);
    assert.deepEqual(ok.body.data.attributes.environment_ids, [mine.environment]);
  });

  test('PATCH checks the target as the alert will be, and the ids it sends; a refusal changes nothing', async () => {
    const created = await send('POST', '/v1/alerts', doc({ summary: 'patch targets', notification_target_type: 'User', notification_target_id: mine.user }));
    const id = created.body.data.id as string;
    const patch = (attributes: Attributes) => send('PATCH', `/v1/alerts/${id}`, doc(attributes));
    const unknown = await patch({ notification_target_id: theirs.user });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.body.errors[0].source.pointer, '/data/attributes/notification_target_id');
    const half = await patch({ notification_target_type: null });
    assert.equal(half.status, 422);
    assert.equal(half.body.errors[0].source.pointer, '/data/attributes/notification_target_type');
    const ids = await patch({ group_ids: [mine.group, theirs.group] });
    assert.equal(ids.body.errors[0].source.pointer, '/data/attributes/group_ids/1');
    const unchanged = (await send('GET', `/v1/alerts/${id}`)).body.data.attributes;
    assert.deepEqual([unchanged.notification_target_type, unchanged.notification_target_id, unchanged.group_ids], ['User', mine.user, null]);
    const moved = await patch({ notification_target_type: 'Group', notification_target_id: mine.group, group_ids: [mine.group] });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.data.attributes.notification_target_id, mine.group);
    const cleared = await patch({ notification_target_type: null, notification_target_id: null });
    assert.equal(cleared.status, 200);
  });

  test("an email alert source's notification target must be a record of the organization", async () => {
    const source = (target: Attributes) => doc({ name: `Mail ${randomUUID()}`, source_type: 'email', sourceable_attributes: target }, 'alert_sources');
    const bad = await send('POST', '/v1/alert_sources', source({ notification_target_type: 'Service', notification_target_id: theirs.service }));
    assert.equal(bad.status, 422, JSON.stringify(bad.body));
    assert.equal(bad.body.errors[0].source.pointer, '/data/attributes/sourceable_attributes/notification_target_id');
    assert.match(bad.body.errors[0].detail, /^sourceable_attributes\.notification_target_id: .* is not a service of this organization/);
    const ok = await send('POST', '/v1/alert_sources', source({ notification_target_type: 'Service', notification_target_id: mine.service }));
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    const half = await send('PUT', `/v1/alert_sources/${ok.body.data.id}`, doc({ sourceable_attributes: { notification_target_type: 'User' } }, 'alert_sources'));
    assert.equal(half.status, 422);
    assert.equal(half.body.errors[0].source.pointer, '/data/attributes/sourceable_attributes/notification_target_id');
    const stored = (await send('GET', `/v1/alert_sources/${ok.body.data.id}`)).body.data.attributes.sourceable_attributes;
    assert.equal(stored.notification_target_id, mine.service);
  });

  test('an alert through an alert source with an unknown target is created without it (open), the event says what was left out', async () => {
    const source = await newAlertSource(api, org.token, {
      source_type: 'generic_webhook',
      sourceable_attributes: {
        field_mappings_attributes: [
          { field: 'alert_title', json_path: '$.title' },
          { field: 'notification_target_type', json_path: '$.target_type' },
          { field: 'notification_target_id', json_path: '$.target_id' },
        ],
      },
    });
    const post = (payload: Attributes) => {
      const raw = JSON.stringify(payload);
      return postInbound(api, source.path, raw, signedBy(source.secret, raw));
    };
    const dropped = await post({ title: 'disk', target_type: 'User', target_id: theirs.user });
    assert.equal(dropped.status, 202, JSON.stringify(dropped.body));
    const [alert] = dropped.body.data;
    assert.deepEqual([alert.attributes.status, alert.attributes.notification_target_type, alert.attributes.notification_target_id], ['open', null, null]);
    const [event] = (await send('GET', `/v1/alerts/${alert.id}/events`)).body.data;
    assert.match(event.attributes.details, new RegExp(`left out: notification_target_id: ${theirs.user} is not a user of this organization`));
    const paged = await post({ title: 'cpu', target_type: 'User', target_id: mine.user });
    assert.equal(paged.body.data[0].attributes.status, 'triggered');
  });

  test('alert.updated carries the previous urgency when a change moves it (spec Events 4)', async () => {
    const urgency = async (name: string) => (await send('POST', '/v1/alert_urgencies', doc({ name, description: name }, 'alert_urgencies'))).body.data.id as string;
    const [low, high] = [await urgency(`Low ${randomUUID()}`), await urgency(`High ${randomUUID()}`)];
    const alert = (await send('POST', '/v1/alerts', doc({ summary: 'urgent', alert_urgency_id: low, deduplication_key: randomUUID() }))).body.data;
    const updates = async () =>
      ((await api.runtime.dataSource.query('SELECT event FROM outbox WHERE aggregate_id = $1 ORDER BY seq', [alert.id])) as { event: DomainEvent }[])
        .map((r) => r.event)
        .filter((e) => e.type === 'alert.updated');
    assert.equal((await send('PATCH', `/v1/alerts/${alert.id}`, doc({ alert_urgency_id: high }))).status, 200);
    assert.equal((await send('PATCH', `/v1/alerts/${alert.id}`, doc({ summary: 'same urgency' }))).status, 200);
    const dedup = await send('POST', '/v1/alerts', doc({ summary: 'again', alert_urgency_id: low, deduplication_key: alert.attributes.deduplication_key }));
    assert.equal(dedup.status, 200);
    const [moved, same, deduplicated] = await updates();
    assert.deepEqual([moved.payload.previous_alert_urgency_id, moved.payload.alert_urgency_id], [low, high]);
    assert.equal('previous_alert_urgency_id' in same.payload, false, 'only a change of urgency carries it');
    assert.deepEqual([deduplicated.payload.previous_alert_urgency_id, deduplicated.payload.alert_urgency_id], [high, low]);
    // Who made the change rides on the event beside the snapshot.
    assert.equal(moved.actor.kind, 'api_key');
  });
});
