import { createHash } from 'node:crypto';
import { emptyDraft, IngestionError, type AlertDraft, type AlertLabel } from './alert-draft';

/**
 * `alertmanager` sources: the Prometheus Alertmanager webhook payload, version 4
 * (https://prometheus.io/docs/alerting/latest/configuration/#webhook_config), one draft per
 * entry of `alerts[]`:
 * - summary: `annotations.summary`, else `labels.alertname` (then the group's common ones);
 * - description: `annotations.description`; external_url: `generatorURL`;
 * - deduplication_key and external_id: the alert's `fingerprint` (Alertmanager's hash of its
 *   labels), or, from senders that omit it, a sha256 of the sorted labels;
 * - labels: `commonLabels` overlaid with the alert's own labels, sorted by key;
 * - `status: "resolved"` resolves; started_at / ended_at from startsAt / endsAt (Alertmanager's
 *   zero time `0001-01-01T00:00:00Z` meaning "not ended" gives null).
 */
export interface AlertmanagerAlert {
  status: 'firing' | 'resolved';
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  endsAt?: string;
  generatorURL?: string;
  fingerprint?: string;
}

export interface AlertmanagerPayload {
  version: string;
  groupKey?: string;
  truncatedAlerts?: number;
  status: 'firing' | 'resolved';
  receiver?: string;
  groupLabels?: Record<string, string>;
  commonLabels?: Record<string, string>;
  commonAnnotations?: Record<string, string>;
  externalURL?: string;
  alerts: AlertmanagerAlert[];
}

export const DEFAULT_ALERTMANAGER_SUMMARY = 'Alertmanager alert';

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function stringMap(value: unknown, field: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw new IngestionError(field, 'expected an object of strings');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new IngestionError(`${field}.${k}`, 'expected a string');
    out[k] = v;
  }
  return out;
}

function nonEmpty(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function labelsFingerprint(labels: Record<string, string>): string {
  const canonical = JSON.stringify(Object.keys(labels).sort().map((k) => [k, labels[k]]));
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

function endTime(value: unknown): string | null {
  const text = nonEmpty(value);
  return text === null || text.startsWith('0001-01-01') ? null : text;
}

export function mapAlertmanager(body: unknown): AlertDraft[] {
  if (!isRecord(body)) throw new IngestionError('body', 'expected an Alertmanager webhook JSON object');
  if (String(body.version) !== '4') {
    throw new IngestionError('version', `unsupported Alertmanager webhook version ${JSON.stringify(body.version)} (expected "4")`);
  }
  if (!Array.isArray(body.alerts)) throw new IngestionError('alerts', 'expected an array');
  const commonLabels = stringMap(body.commonLabels, 'commonLabels');
  const commonAnnotations = stringMap(body.commonAnnotations, 'commonAnnotations');
  return body.alerts.map((item: unknown, i: number) => {
    const field = `alerts[${i}]`;
    if (!isRecord(item)) throw new IngestionError(field, 'expected an object');
    if (item.status !== 'firing' && item.status !== 'resolved') {
      throw new IngestionError(`${field}.status`, 'expected "firing" or "resolved"');
    }
    const labels = stringMap(item.labels, `${field}.labels`);
    const annotations = stringMap(item.annotations, `${field}.annotations`);
    const summary =
      nonEmpty(annotations.summary) ??
      nonEmpty(labels.alertname) ??
      nonEmpty(commonAnnotations.summary) ??
      nonEmpty(commonLabels.alertname) ??
      DEFAULT_ALERTMANAGER_SUMMARY;
    const draft = emptyDraft(summary, item);
    draft.description = nonEmpty(annotations.description) ?? nonEmpty(commonAnnotations.description);
    draft.external_url = nonEmpty(item.generatorURL);
    const merged = { ...commonLabels, ...labels };
    const key = nonEmpty(item.fingerprint) ?? `labels:${labelsFingerprint(merged)}`;
    draft.deduplication_key = key;
    draft.external_id = key;
    draft.labels = Object.keys(merged)
      .sort()
      .map((k): AlertLabel => ({ key: k, value: merged[k] }));
    draft.started_at = nonEmpty(item.startsAt);
    draft.ended_at = endTime(item.endsAt);
    draft.resolve = item.status === 'resolved';
    return draft;
  });
}
