import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { newAlertSource, postInbound, signedBy, type InboundSource } from './support/alert-sources';
import { created, doc, unique } from './support/json-api';
import { usePagingWorld } from './support/paging';

type Field = { id: string; attributes: { name: string; slug: string; kind: string } };

/**
 * Alert fields (docs/alert-fields.md): the built-in fields every organization has, the values an
 * alert source's alert_source_fields_attributes give its alerts at ingestion, and the rules that
 * look at them (source urgency and resolution rules, escalation path field rules).
 */
describe('alert fields', () => {
  const w = usePagingWorld();

  const fieldOfKind = async (kind: string, token = w.org.token) => {
    const res = await w.send('GET', `/v1/alert_fields?filter[kind]=${kind}`, undefined, token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.length, 1, `one ${kind} field`);
    return res.body.data[0] as Field;
  };
  const customField = async (name: string) => created(await w.send('POST', '/v1/alert_fields', doc('alert_fields', { name: unique(name) }))).id as string;
  const urgency = async () => created(await w.send('POST', '/v1/alert_urgencies', doc('alert_urgencies', { name: unique('U'), description: 'u' }))).id as string;
  const post = (source: InboundSource, payload: unknown) => {
    const raw = JSON.stringify(payload);
    return postInbound(w.api, source.path, raw, signedBy(source.secret, raw));
  };
  const ingested = async (source: InboundSource, payload: unknown) => {
    const res = await post(source, payload);
    assert.equal(res.status, 202, JSON.stringify(res.body));
    return res.body.data[0] as { id: string; attributes: Record<string, unknown> };
  };

  test('a new organization has the built-in fields; filter[kind]=title finds the title field', async () => {
    const fresh = await w.api.newOrganization();
    const res = await w.send('GET', '/v1/alert_fields?filter[kind][not_eq]=custom', undefined, fresh.token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      (res.body.data as Field[]).map((f) => [f.attributes.slug, f.attributes.kind, f.attributes.name]).sort(),
      [
        ['description', 'description', 'Description'],
        ['external_id', 'external_id', 'External ID'],
        ['external_url', 'external_url', 'Source Link'],
        ['state', 'state', 'State'],
        ['title', 'title', 'Title'],
      ],
    );
    const title = await fieldOfKind('title', fresh.token);
    assert.equal((await w.send('GET', `/v1/alert_fields/${title.id}`, undefined, fresh.token)).body.data.attributes.kind, 'title');
    assert.notEqual(title.id, (await fieldOfKind('title')).id, 'each organization has its own');
  });

  test('built-in fields cannot be renamed or deleted (422); custom ones can', async () => {
    const title = await fieldOfKind('title');
    const renamed = await w.send('PUT', `/v1/alert_fields/${title.id}`, doc('alert_fields', { name: 'Headline' }));
    assert.equal(renamed.status, 422, JSON.stringify(renamed.body));
    assert.equal(renamed.body.errors[0].source.pointer, '/data/attributes/name');
    assert.equal(renamed.body.errors[0].code, 'BUILT_IN_ALERT_FIELD');
    assert.equal((await w.send('PUT', `/v1/alert_fields/${title.id}`, doc('alert_fields', { name: 'Title' }))).status, 200, 'the same name is no rename');
    const deleted = await w.send('DELETE', `/v1/alert_fields/${title.id}`);
    assert.equal(deleted.status, 422, JSON.stringify(deleted.body));
    assert.equal(deleted.body.errors[0].code, 'BUILT_IN_ALERT_FIELD');
    assert.equal((await fieldOfKind('title')).attributes.name, 'Title');
    const custom = await customField('Throwaway');
    assert.equal((await w.send('DELETE', `/v1/alert_fields/${custom}`)).status, 200);
  });

  test('fields attributes fill summary, description, external_url and custom values at ingestion', async () => {
    const [title, description, url] = [await fieldOfKind('title'), await fieldOfKind('description'), await fieldOfKind('external_url')];
    const region = await customField('Region');
    const source = await newAlertSource(w.api, w.org.token, {
      source_type: 'generic_webhook',
      alert_template_attributes: { title: '$.legacy_title' },
      alert_source_fields_attributes: [
        { alert_field_id: title.id, template_body: '{{ alert.data.check.name }} is down' },
        { alert_field_id: description.id, template_body: 'Datacenter is burning down.' },
        { alert_field_id: url.id, template_body: '$.check.url' },
        { alert_field_id: region, template_body: '$.region' },
      ],
    });
    const alert = await ingested(source, { legacy_title: 'ignored', check: { name: 'db1', url: 'https://mon.example/db1' }, region: 'eu-west-1' });
    assert.equal(alert.attributes.summary, 'db1 is down', 'the title field wins over the legacy template');
    assert.equal(alert.attributes.description, 'Datacenter is burning down.');
    assert.equal(alert.attributes.external_url, 'https://mon.example/db1');
    const values = alert.attributes.alert_field_values as Record<string, unknown>[];
    assert.equal(values.length, 1);
    assert.deepEqual({ ...values[0], id: undefined, created_at: undefined, updated_at: undefined }, { id: undefined, alert_field_id: region, alert_id: alert.id, value: 'eu-west-1', created_at: undefined, updated_at: undefined });
    assert.ok(Date.parse(String(values[0].created_at)) > 0);
    const read = await w.send('GET', `/v1/alerts/${alert.id}`);
    assert.deepEqual(read.body.data.attributes.alert_field_values, values, 'the read model holds them');
  });

  test('a duplicate refreshes the field values of the alert it folds into', async () => {
    const region = await customField('Region');
    const source = await newAlertSource(w.api, w.org.token, {
      source_type: 'generic_webhook',
      deduplicate_alerts_by_key: true,
      deduplication_key_path: '$.id',
      alert_source_fields_attributes: [{ alert_field_id: region, template_body: '$.region' }],
    });
    const id = randomUUID();
    const first = await ingested(source, { title: 'Disk full', id, region: 'eu-west-1' });
    const again = await ingested(source, { title: 'Disk full', id, region: 'eu-west-2' });
    assert.equal(again.id, first.id);
    const [value] = again.attributes.alert_field_values as Record<string, unknown>[];
    assert.deepEqual([value.alert_field_id, value.alert_id, value.value], [region, first.id, 'eu-west-2']);
  });

  test('urgency and resolution rules on alert fields decide at ingestion', async () => {
    const [high, low] = [await urgency(), await urgency()];
    const severity = await customField('Severity');
    const ticket = await customField('Ticket');
    const source = await newAlertSource(w.api, w.org.token, {
      source_type: 'generic_webhook',
      alert_urgency_id: low,
      deduplicate_alerts_by_key: true,
      deduplication_key_path: '$.ticket',
      alert_source_fields_attributes: [
        { alert_field_id: severity, template_body: '$.labels.sev' },
        { alert_field_id: ticket, template_body: '$.ticket' },
      ],
      alert_source_urgency_rules_attributes: [{ kind: 'alert_field', conditionable_type: 'AlertField', conditionable_id: severity, operator: 'is', value: 'sev1', alert_urgency_id: high }],
      resolution_rule_attributes: {
        enabled: true,
        condition_type: 'all',
        identifier_reference_kind: 'alert_field',
        identifier_matchable_type: 'AlertField',
        identifier_matchable_id: ticket,
        conditions_attributes: [{ kind: 'alert_field', conditionable_type: 'AlertField', conditionable_id: severity, operator: 'is', value: 'ok' }],
      },
    });
    const key = `OPS-${randomUUID().slice(0, 6)}`;
    const opened = await ingested(source, { title: 'Disk full', ticket: key, labels: { sev: 'sev1' } });
    assert.equal(opened.attributes.alert_urgency_id, high, 'the field value sev1 sets the urgency');
    assert.equal(opened.attributes.status, 'open');
    const other = await ingested(source, { title: 'Disk filling', ticket: `${key}-b`, labels: { sev: 'sev3' } });
    assert.equal(other.attributes.alert_urgency_id, low, 'no rule holds: the source default');

    const resolved = await ingested(source, { title: 'Disk ok', ticket: key, labels: { sev: 'ok' } });
    assert.equal(resolved.id, opened.id, 'the field identifier names the alert to resolve');
    assert.equal(resolved.attributes.status, 'resolved');
  });

  test("an escalation path's field rule reads the alert's field values", async () => {
    const [eu, rest] = [await w.userWithEmail(), await w.userWithEmail()];
    const region = await customField('Region');
    const policy = created(await w.send('POST', '/v1/escalation_policies', doc('escalation_policies', { name: unique('By region') }))).id as string;
    const paths = `/v1/escalation_policies/${policy}/escalation_paths`;
    for (const [attributes, user] of [
      [{ default: true, position: 2 }, rest],
      [{ position: 1, rules: [{ rule_type: 'field', fieldable_type: 'AlertField', fieldable_id: region, operator: 'is', values: ['eu-west-1'] }] }, eu],
    ] as const) {
      const path = created(await w.send('POST', paths, doc('escalation_paths', { name: unique('Path'), ...attributes }))).id as string;
      const level = { delay: 5, notification_target_params: [{ type: 'user', id: String(user.id) }], escalation_policy_path_id: path };
      created(await w.send('POST', `/v1/escalation_policies/${policy}/escalation_levels`, doc('escalation_levels', level)));
    }
    const source = await newAlertSource(w.api, w.org.token, {
      source_type: 'generic_webhook',
      sourceable_attributes: {
        field_mappings_attributes: [
          { field: 'notification_target_type', json_path: '$.target_type' },
          { field: 'notification_target_id', json_path: '$.target_id' },
        ],
      },
      alert_source_fields_attributes: [{ alert_field_id: region, template_body: '$.region' }],
    });
    const target = { target_type: 'EscalationPolicy', target_id: policy };
    await ingested(source, { title: unique('EU down'), region: 'eu-west-1', ...target });
    await w.engine.tick();
    assert.equal(w.mailsTo(eu.email).length, 1, 'the field rule chose the EU path');
    assert.equal(w.mailsTo(rest.email).length, 0);
    await ingested(source, { title: unique('US down'), region: 'us-east-1', ...target });
    await w.engine.tick();
    assert.equal(w.mailsTo(rest.email).length, 1, 'another value: the default path');
    assert.equal(w.mailsTo(eu.email).length, 1);
  });

  test("the Terraform provider's documented templates {{ alert.title }} and {{ alert.severity }}: the alert's title, an unknown name empty", async () => {
    const [title, description] = [await fieldOfKind('title'), await fieldOfKind('description')];
    const severity = await customField('Severity');
    // The provider's body (its documented alert_route example, the title field found by kind).
    const res = await w.send('POST', '/v1/alert_sources', {
      data: {
        type: 'alert_sources',
        attributes: {
          alert_source_fields_attributes: [
            { alert_field_id: title.id, template_body: '{{ alert.title }}' },
            { alert_field_id: severity, template_body: '{{ alert.severity }}' },
            { alert_field_id: description.id, template_body: '{{ alert.status }} from {{ alert.source }}: {{ alert.title }} ({{ alert.data.region }})' },
          ],
          deduplication_key_kind: 'payload',
          name: unique('tf source'),
          source_type: 'generic_webhook',
        },
      },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const id = res.body.data.id as string;
    const source: InboundSource = { id, path: `/v1/alert_sources/${id}/alerts`, secret: res.body.data.attributes.secret as string, emails: `/v1/alert_sources/${id}/emails` };
    const alert = await ingested(source, { title: 'db1 down', region: 'eu-west-1' });
    assert.equal(alert.attributes.summary, 'db1 down', "{{ alert.title }} is the mapper's title");
    assert.equal(alert.attributes.description, 'triggered from generic_webhook: db1 down (eu-west-1)');
    const values = (await w.send('GET', `/v1/alerts/${alert.id}`)).body.data.attributes.alert_field_values as { alert_field_id: string; value: string }[] | undefined;
    assert.equal((values ?? []).some((v) => v.alert_field_id === severity), false, 'an unknown name renders empty, and an empty value is no value');
  });

  test("another organization's fields answer 404 and are refused in alert sources; bad templates answer 422", async () => {
    const foreign = await fieldOfKind('title', w.other.token);
    assert.equal((await w.send('GET', `/v1/alert_fields/${foreign.id}`)).status, 404);
    assert.equal((await w.send('PUT', `/v1/alert_fields/${foreign.id}`, doc('alert_fields', { name: 'x' }))).status, 404);
    assert.equal((await w.send('DELETE', `/v1/alert_fields/${foreign.id}`)).status, 404);
    const name = unique('refused-fields');
    const refused = async (attributes: Record<string, unknown>, pointer: string, code: string) => {
      const res = await w.send('POST', '/v1/alert_sources', doc('alert_sources', { name, source_type: 'generic_webhook', ...attributes }));
      assert.equal(res.status, 422, JSON.stringify(res.body));
      assert.deepEqual(res.body.errors.map((e: { source: { pointer: string }; code: string }) => [e.source.pointer, e.code]), [[pointer, code]]);
    };
    const own = await fieldOfKind('title');
    const FIELDS = '/data/attributes/alert_source_fields_attributes';
    await refused({ alert_source_fields_attributes: [{ alert_field_id: own.id, template_body: '$.t' }, { alert_field_id: foreign.id, template_body: '$.t' }] }, `${FIELDS}/1/alert_field_id`, 'UNKNOWN_REFERENCE');
    await refused({ alert_source_fields_attributes: [{ alert_field_id: own.id, template_body: 'x {{ $..t }}' }] }, `${FIELDS}/0/template_body`, 'INVALID_ALERT_SOURCE_CONFIG');
    await refused({ alert_source_fields_attributes: [{ alert_field_id: own.id, template_body: '{{ alert.summary | upcase }}' }] }, `${FIELDS}/0/template_body`, 'INVALID_ALERT_SOURCE_CONFIG');
    await refused(
      { resolution_rule_attributes: { enabled: true, identifier_reference_kind: 'alert_field', identifier_matchable_id: foreign.id, conditions_attributes: [{ field: '$.s', operator: 'is', value: 'ok' }] } },
      '/data/attributes/resolution_rule_attributes/identifier_matchable_id',
      'UNKNOWN_REFERENCE',
    );
    assert.deepEqual((await w.send('GET', `/v1/alert_sources?filter[name]=${encodeURIComponent(name)}`)).body.data, [], 'nothing was created');
  });
});
