/**
 * What an ingestion mapper produces from one item of a sender's payload: the attributes of a
 * `new_alert` (reference schema) that can come from the payload, plus `resolve`, which tells
 * the ingestion service to resolve the alert sharing the draft's deduplication key instead of
 * opening one. Pure data: no ids, tenant or source row here; the service adds those.
 */
export type NotificationTargetType = 'User' | 'Group' | 'EscalationPolicy' | 'Service' | 'Functionality';

export const NOTIFICATION_TARGET_TYPES: readonly NotificationTargetType[] = [
  'User',
  'Group',
  'EscalationPolicy',
  'Service',
  'Functionality',
];

export interface AlertLabel {
  key: string;
  value: string | number | boolean;
}

export interface AlertDraft {
  /** `new_alert.summary`, required and never empty. */
  summary: string;
  description: string | null;
  external_id: string | null;
  external_url: string | null;
  deduplication_key: string | null;
  labels: AlertLabel[];
  /** The raw payload item the draft came from (`new_alert.data`). */
  data: Record<string, unknown>;
  notification_target_type: NotificationTargetType | null;
  notification_target_id: string | null;
  started_at: string | null;
  ended_at: string | null;
  /** True when the payload says the condition is over (auto-resolve). */
  resolve: boolean;
  /** Custom alert field values the source's `alert_source_fields_attributes` gave (alert-fields.ts). */
  alert_field_values?: AlertFieldValue[];
  /** The value the source's built-in `state` field rendered: what rules on that field compare. Not stored. */
  state?: string | null;
}

/** A custom alert field's value on an alert (reference `new_alert.alert_field_values_attributes[]`). */
export interface AlertFieldValue {
  alert_field_id: string;
  value: string;
}

/** Summaries longer than this are cut (with an ellipsis) rather than refused. */
export const MAX_SUMMARY_LENGTH = 255;

/**
 * A payload or source configuration the mapper cannot use. `field` names the offending
 * attribute (a source attribute such as `deduplication_key_path`, or `body`). The HTTP layer
 * answers 422 with it as the JSON:API error pointer.
 */
export class IngestionError extends Error {
  readonly status = 422;
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'IngestionError';
  }
}

export function clipSummary(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= MAX_SUMMARY_LENGTH ? flat : `${flat.slice(0, MAX_SUMMARY_LENGTH - 1)}…`;
}

/** A payload value rendered as alert text: strings as they are, other scalars and objects as JSON. */
export function asText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function emptyDraft(summary: string, data: Record<string, unknown>): AlertDraft {
  return {
    summary: clipSummary(summary),
    description: null,
    external_id: null,
    external_url: null,
    deduplication_key: null,
    labels: [],
    data,
    notification_target_type: null,
    notification_target_id: null,
    started_at: null,
    ended_at: null,
    resolve: false,
  };
}
