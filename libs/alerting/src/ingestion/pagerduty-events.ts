import { asText, emptyDraft, type AlertDraft, type AlertLabel } from './alert-draft';

/**
 * PagerDuty Events API v2 (https://developer.pagerduty.com/docs/events-API-v2/overview/), as
 * `POST /v2/enqueue` and `POST /v2/change/enqueue` take it (docs/pagerduty-events.md): validation
 * with PagerDuty's error strings, and the mapping of an event to an alert draft. Pure: the routing
 * key is only checked for shape here; the handler looks it up.
 */
export const PAGERDUTY_ACTIONS = ['trigger', 'acknowledge', 'resolve'] as const;
export type PagerDutyAction = (typeof PAGERDUTY_ACTIONS)[number];
export const PAGERDUTY_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export type PagerDutySeverity = (typeof PAGERDUTY_SEVERITIES)[number];

/** PagerDuty's limits: dedup_key 255 characters, summary 1024. */
export const MAX_DEDUP_KEY_LENGTH = 255;
export const MAX_PAGERDUTY_SUMMARY_LENGTH = 1024;

/** An event that passed validation. `dedupKey` is null only for a trigger that sent none. */
export interface PagerDutyAlertEvent {
  routingKey: string;
  action: PagerDutyAction;
  dedupKey: string | null;
  /** The event as sent, less the routing key (a credential: it never reaches an alert's `data`). */
  data: Record<string, unknown>;
}

export interface PagerDutyChangeEvent {
  routingKey: string;
  data: Record<string, unknown>;
}

export type Parsed<T> = { ok: true; event: T } | { ok: false; errors: string[] };

/** PagerDuty's answers (202 and 400 bodies). */
export const accepted = (dedupKey: string) => ({ status: 'success', message: 'Event processed', dedup_key: dedupKey });
export const changeAccepted = () => ({ status: 'success', message: 'Change event processed' });
export const invalidEvent = (errors: string[]) => ({ status: 'invalid event', message: 'Event object is invalid', errors });
/** What an unknown (or disabled) routing key answers: 400, as PagerDuty does for a key of no integration. */
export const INVALID_ROUTING_KEY = 'Invalid routing key';

type Record_ = Record<string, unknown>;
/** A JSON object: not an array, nor the bytes a raw body parser leaves (a text/plain body). */
const isRecord = (value: unknown): value is Record_ => {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
};
const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A check of the event: it pushes PagerDuty-style messages to `errors`. */
class Checker {
  readonly errors: string[] = [];
  constructor(private readonly event: Record_) {}

  /** A string member: required ones may not be blank; every one is a string within `max`. */
  text(object: Record_, path: string, name: string, { required = false, max }: { required?: boolean; max?: number } = {}): void {
    const value = object[name];
    if (blank(value)) {
      if (required) this.errors.push(`'${path}' is missing or blank`);
      return;
    }
    if (typeof value !== 'string') this.errors.push(`'${path}' must be a string`);
    else if (max !== undefined && value.length > max) this.errors.push(`'${path}' is too long (maximum is ${max} characters)`);
  }

  routingKey(): string {
    this.text(this.event, 'routing_key', 'routing_key', { required: true });
    const key = this.event.routing_key;
    if (typeof key === 'string' && key.trim() !== '' && !/^[A-Za-z0-9]+$/.test(key)) this.errors.push("'routing_key' cannot contain non-alphanumeric characters.");
    return typeof key === 'string' ? key : '';
  }

  timestamp(payload: Record_, path: string): void {
    const value = payload.timestamp;
    if (blank(value)) return;
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T/.test(value) || Number.isNaN(Date.parse(value))) this.errors.push(`'${path}' must be a valid ISO 8601 timestamp`);
  }

  /** `links` (and `images`): arrays of objects with an `href` (images: `src`). */
  list(name: 'links' | 'images', href: 'href' | 'src'): void {
    const value = this.event[name];
    if (value === undefined || value === null) return;
    if (!Array.isArray(value)) return void this.errors.push(`'${name}' must be an array`);
    value.forEach((item: unknown, i) => {
      if (!isRecord(item) || blank(item[href]) || typeof item[href] !== 'string') this.errors.push(`'${name}[${i}].${href}' is missing or blank`);
    });
  }
}

function withoutKey(event: Record_): Record_ {
  const { routing_key: _key, ...rest } = event;
  return rest;
}

/** Validates an alert event (`POST /v2/enqueue`): every problem found, in PagerDuty's words. */
export function parsePagerDutyEvent(body: unknown): Parsed<PagerDutyAlertEvent> {
  if (!isRecord(body)) return { ok: false, errors: ['Event must be a JSON object'] };
  const check = new Checker(body);
  const routingKey = check.routingKey();
  const action = body.event_action;
  if (blank(action)) check.errors.push("'event_action' is missing or blank");
  else if (!PAGERDUTY_ACTIONS.includes(action as PagerDutyAction)) check.errors.push(`'event_action' must be one of ${PAGERDUTY_ACTIONS.join(', ')}`);
  check.text(body, 'dedup_key', 'dedup_key', { required: action === 'acknowledge' || action === 'resolve', max: MAX_DEDUP_KEY_LENGTH });
  if (action === 'trigger') {
    const payload = body.payload;
    if (!isRecord(payload)) {
      check.errors.push("'payload' is missing or not an object");
    } else {
      check.text(payload, 'payload.summary', 'summary', { required: true, max: MAX_PAGERDUTY_SUMMARY_LENGTH });
      check.text(payload, 'payload.source', 'source', { required: true, max: MAX_DEDUP_KEY_LENGTH });
      if (blank(payload.severity)) check.errors.push("'payload.severity' is missing or blank");
      else if (!PAGERDUTY_SEVERITIES.includes(payload.severity as PagerDutySeverity)) check.errors.push(`'payload.severity' must be one of ${PAGERDUTY_SEVERITIES.join(', ')}`);
      check.timestamp(payload, 'payload.timestamp');
      for (const name of ['component', 'group', 'class']) check.text(payload, `payload.${name}`, name);
    }
    check.text(body, 'client', 'client');
    check.text(body, 'client_url', 'client_url');
    check.list('links', 'href');
    check.list('images', 'src');
  }
  if (check.errors.length) return { ok: false, errors: check.errors };
  const dedupKey = blank(body.dedup_key) ? null : (body.dedup_key as string);
  return { ok: true, event: { routingKey, action: action as PagerDutyAction, dedupKey, data: withoutKey(body) } };
}

/** Validates a change event (`POST /v2/change/enqueue`). */
export function parseChangeEvent(body: unknown): Parsed<PagerDutyChangeEvent> {
  if (!isRecord(body)) return { ok: false, errors: ['Event must be a JSON object'] };
  const check = new Checker(body);
  const routingKey = check.routingKey();
  const payload = body.payload;
  if (!isRecord(payload)) {
    check.errors.push("'payload' is missing or not an object");
  } else {
    check.text(payload, 'payload.summary', 'summary', { required: true, max: MAX_PAGERDUTY_SUMMARY_LENGTH });
    check.text(payload, 'payload.source', 'source');
    check.timestamp(payload, 'payload.timestamp');
  }
  check.list('links', 'href');
  if (check.errors.length) return { ok: false, errors: check.errors };
  return { ok: true, event: { routingKey, data: withoutKey(body) } };
}

const labelsOf = (pairs: [string, unknown][]): AlertLabel[] => pairs.filter(([, v]) => typeof v === 'string' && v !== '').map(([key, value]) => ({ key, value: value as string }));
const firstHref = (links: unknown): string | null => (Array.isArray(links) && isRecord(links[0]) && typeof links[0].href === 'string' ? links[0].href : null);
/** The event's time as ISO 8601 UTC: PagerDuty's examples write offsets without a colon (`+0000`). */
const startOf = (payload: Record_): string | null => (blank(payload.timestamp) ? null : new Date(payload.timestamp as string).toISOString());
/** Custom details as the alert's description: text as it is, anything else as JSON. */
const describe = (details: unknown): string | null => (blank(details) ? null : asText(details));

/**
 * A trigger's alert draft: summary (cut at 255 characters, the whole text stays in `data`),
 * description from `custom_details`, `dedupKey` as deduplication key and external id,
 * `client_url` (else the first link) as external URL, started at `payload.timestamp`, labels
 * severity, source, component, group, class and client; `data` the event without its routing key.
 */
export function triggerDraft(event: PagerDutyAlertEvent, dedupKey: string): AlertDraft {
  const payload = event.data.payload as Record_;
  const draft = emptyDraft(payload.summary as string, event.data);
  draft.description = describe(payload.custom_details);
  draft.deduplication_key = dedupKey;
  draft.external_id = dedupKey;
  draft.external_url = (typeof event.data.client_url === 'string' && event.data.client_url !== '' ? event.data.client_url : null) ?? firstHref(event.data.links);
  draft.started_at = startOf(payload);
  draft.labels = labelsOf([
    ['severity', payload.severity],
    ['source', payload.source],
    ['component', payload.component],
    ['group', payload.group],
    ['class', payload.class],
    ['client', event.data.client],
  ]);
  return draft;
}

/**
 * A change event's draft: a timeline entry, not a problem (docs/pagerduty-events.md): label
 * `pagerduty_event: change`, started at its timestamp, the first link as external URL; no
 * deduplication key, so every change is its own entry.
 */
export function changeDraft(event: PagerDutyChangeEvent): AlertDraft {
  const payload = event.data.payload as Record_;
  const draft = emptyDraft(payload.summary as string, event.data);
  draft.description = describe(payload.custom_details);
  draft.external_url = firstHref(event.data.links);
  draft.started_at = startOf(payload);
  draft.labels = labelsOf([
    ['pagerduty_event', 'change'],
    ['source', payload.source],
  ]);
  return draft;
}
