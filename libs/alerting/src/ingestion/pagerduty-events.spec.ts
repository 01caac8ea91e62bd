import { describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { MAX_SUMMARY_LENGTH } from './alert-draft';
import { accepted, changeDraft, invalidEvent, parseChangeEvent, parsePagerDutyEvent, triggerDraft, type Parsed } from './pagerduty-events';

const KEY = 'R0ut1ngKeyR0ut1ngKeyR0ut1ngKey32';

/** PagerDuty's documented trigger example, all members set. */
const trigger = {
  routing_key: KEY,
  event_action: 'trigger',
  dedup_key: 'srv01/HTTP',
  payload: {
    summary: 'DISK at 99% on machine prod-datapipe03.example.com',
    timestamp: '2015-07-17T08:42:58.315+0000',
    severity: 'critical',
    source: 'prod-datapipe03.example.com',
    component: 'mysql',
    group: 'prod-datapipe',
    class: 'disk',
    custom_details: { 'free space': '1%', 'ping time': '1500ms', 'load avg': 0.75 },
  },
  images: [{ src: 'https://chart.googleapis.com/chart?chs=600x400', href: 'https://example.com/', alt: 'An example link with an image' }],
  links: [{ href: 'https://example.com/', text: 'An example link.' }],
  client: 'Sample Monitoring Service',
  client_url: 'https://monitoring.service.com',
};

const errorsOf = <T>(parsed: Parsed<T>): string[] => {
  assert.equal(parsed.ok, false, 'expected the event to be invalid');
  return (parsed as { errors: string[] }).errors;
};
const eventOf = <T>(parsed: Parsed<T>): T => {
  assert.ok(parsed.ok, JSON.stringify(parsed));
  return parsed.event;
};

describe('parsePagerDutyEvent', () => {
  test('a full trigger is valid; the routing key is kept apart and left out of the data', () => {
    const event = eventOf(parsePagerDutyEvent(trigger));
    expect(event).toMatchObject({ routingKey: KEY, action: 'trigger', dedupKey: 'srv01/HTTP' });
    assert.equal('routing_key' in event.data, false);
    assert.deepEqual(event.data.payload, trigger.payload);
  });

  test('the minimal trigger (summary, source, severity) is valid, without dedup_key', () => {
    const event = eventOf(parsePagerDutyEvent({ routing_key: KEY, event_action: 'trigger', payload: { summary: 'x', source: 'y', severity: 'info' } }));
    assert.equal(event.dedupKey, null);
  });

  test('acknowledge and resolve need only the key and dedup_key', () => {
    for (const action of ['acknowledge', 'resolve'] as const) {
      expect(eventOf(parsePagerDutyEvent({ routing_key: KEY, event_action: action, dedup_key: 'k' }))).toMatchObject({ action, dedupKey: 'k' });
      expect(errorsOf(parsePagerDutyEvent({ routing_key: KEY, event_action: action }))).toEqual(["'dedup_key' is missing or blank"]);
    }
  });

  test('every problem is named, in PagerDuty words', () => {
    expect(errorsOf(parsePagerDutyEvent({ event_action: 'trigger', payload: { severity: 'fatal', timestamp: 'yesterday', component: 3 } }))).toEqual([
      "'routing_key' is missing or blank",
      "'payload.summary' is missing or blank",
      "'payload.source' is missing or blank",
      "'payload.severity' must be one of critical, error, warning, info",
      "'payload.timestamp' must be a valid ISO 8601 timestamp",
      "'payload.component' must be a string",
    ]);
    expect(errorsOf(parsePagerDutyEvent({ routing_key: 'not-a-key!', event_action: 'page' }))).toEqual([
      "'routing_key' cannot contain non-alphanumeric characters.",
      "'event_action' must be one of trigger, acknowledge, resolve",
    ]);
    expect(errorsOf(parsePagerDutyEvent({ routing_key: KEY }))).toEqual(["'event_action' is missing or blank"]);
    expect(errorsOf(parsePagerDutyEvent({ routing_key: KEY, event_action: 'trigger' }))).toEqual(["'payload' is missing or not an object"]);
    expect(errorsOf(parsePagerDutyEvent({ ...trigger, links: [{ text: 'no href' }], images: {} }))).toEqual(["'links[0].href' is missing or blank", "'images' must be an array"]);
  });

  test('limits: dedup_key 255 characters, summary 1024', () => {
    expect(errorsOf(parsePagerDutyEvent({ ...trigger, dedup_key: 'k'.repeat(256), payload: { ...trigger.payload, summary: 's'.repeat(1025) } }))).toEqual([
      "'dedup_key' is too long (maximum is 255 characters)",
      "'payload.summary' is too long (maximum is 1024 characters)",
    ]);
    eventOf(parsePagerDutyEvent({ ...trigger, dedup_key: 'k'.repeat(255), payload: { ...trigger.payload, summary: 's'.repeat(1024) } }));
  });

  test('a body that is no object', () => {
    for (const body of [null, [], 'trigger', 42, Buffer.from('{}')]) expect(errorsOf(parsePagerDutyEvent(body))).toEqual(['Event must be a JSON object']);
  });
});

describe('triggerDraft', () => {
  test('maps the event to an alert draft', () => {
    const draft = triggerDraft(eventOf(parsePagerDutyEvent(trigger)), 'srv01/HTTP');
    expect(draft).toEqual({
      summary: trigger.payload.summary,
      description: JSON.stringify(trigger.payload.custom_details),
      external_id: 'srv01/HTTP',
      external_url: 'https://monitoring.service.com',
      deduplication_key: 'srv01/HTTP',
      labels: [
        { key: 'severity', value: 'critical' },
        { key: 'source', value: 'prod-datapipe03.example.com' },
        { key: 'component', value: 'mysql' },
        { key: 'group', value: 'prod-datapipe' },
        { key: 'class', value: 'disk' },
        { key: 'client', value: 'Sample Monitoring Service' },
      ],
      data: Object.fromEntries(Object.entries(trigger).filter(([name]) => name !== 'routing_key')),
      notification_target_type: null,
      notification_target_id: null,
      started_at: '2015-07-17T08:42:58.315Z',
      ended_at: null,
      resolve: false,
    });
  });

  test('the generated key is the deduplication key; the first link stands in for client_url; text details stay text', () => {
    const event = eventOf(parsePagerDutyEvent({ routing_key: KEY, event_action: 'trigger', links: [{ href: 'https://runbook.example.com' }], payload: { summary: 'x', source: 'y', severity: 'warning', custom_details: 'free text' } }));
    const draft = triggerDraft(event, 'generated');
    expect(draft).toMatchObject({ deduplication_key: 'generated', external_id: 'generated', external_url: 'https://runbook.example.com', description: 'free text', started_at: null });
    expect(draft.labels).toEqual([
      { key: 'severity', value: 'warning' },
      { key: 'source', value: 'y' },
    ]);
  });

  test('a summary over 255 characters is cut; the whole text stays in data', () => {
    const summary = 'word '.repeat(200).trim();
    const draft = triggerDraft(eventOf(parsePagerDutyEvent({ ...trigger, payload: { ...trigger.payload, summary } })), 'k');
    assert.equal(draft.summary.length, MAX_SUMMARY_LENGTH);
    assert.equal((draft.data.payload as { summary: string }).summary, summary);
  });
});

describe('change events', () => {
  const change = {
    routing_key: KEY,
    payload: { summary: 'Build success: Increase snapshot create timeout to 30 seconds', timestamp: '2020-07-17T08:42:58.315+0000', source: 'acme-build-pipeline-tool-default-i-9999', custom_details: { build_state: 'passed', build_number: '2' } },
    links: [{ href: 'https://acme.pagerduty.dev/build/2', text: 'View more details in Acme!' }],
  };

  test('map to a draft labelled as a change, with no deduplication key', () => {
    expect(changeDraft(eventOf(parseChangeEvent(change)))).toMatchObject({
      summary: change.payload.summary,
      description: JSON.stringify(change.payload.custom_details),
      deduplication_key: null,
      external_url: 'https://acme.pagerduty.dev/build/2',
      started_at: '2020-07-17T08:42:58.315Z',
      labels: [
        { key: 'pagerduty_event', value: 'change' },
        { key: 'source', value: change.payload.source },
      ],
      resolve: false,
    });
  });

  test('need a routing key and a summary', () => {
    expect(errorsOf(parseChangeEvent({ payload: {} }))).toEqual(["'routing_key' is missing or blank", "'payload.summary' is missing or blank"]);
    expect(errorsOf(parseChangeEvent({ routing_key: KEY }))).toEqual(["'payload' is missing or not an object"]);
    assert.equal('routing_key' in eventOf(parseChangeEvent(change)).data, false);
  });
});

test("PagerDuty's answer bodies", () => {
  expect(accepted('k')).toEqual({ status: 'success', message: 'Event processed', dedup_key: 'k' });
  expect(invalidEvent(['e'])).toEqual({ status: 'invalid event', message: 'Event object is invalid', errors: ['e'] });
});
