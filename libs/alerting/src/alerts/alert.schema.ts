import { defineResource, type AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { ALERT_STATUSES, SNOOZE_MINUTES } from './alert.state';

const text = (description: string, more: Partial<AttributeDef> = {}): AttributeDef => ({ type: 'string', nullable: true, description, ...more });
const ids = (description: string): AttributeDef => ({ type: 'array', items: { type: 'string' }, nullable: true, description });
const time = (description: string): AttributeDef => ({ type: 'date-time', nullable: true, filter: true, sortable: true, description });
const LIST_OPS = ['eq', 'not_eq', 'in', 'not_in'] as const;

/** The reference's notification target types (`new_alert.notification_target_type`). */
export const NOTIFICATION_TARGET_TYPES = ['User', 'Group', 'EscalationPolicy', 'Service', 'Functionality'] as const;

/**
 * An alert (reference `alert`): what `POST /v1/alerts` stores and every read answers. `status`
 * moves only through the lifecycle (alert.state.ts); `short_id` is assigned; `source` is
 * deprecated, accepted and defaults to `api`.
 */
export const alertSchema = defineResource({
  type: 'alerts',
  singular: 'alert',
  path: '/v1/alerts',
  readTable: 'alerts_read',
  defaultSort: 'created_at',
  cursor: true,
  // People and tools name alerts by it (the hosted API's clients look them up so).
  recordKey: 'short_id',
  operations: ['list', 'create', 'get', 'update'],
  updateMethod: 'patch',
  attributes: {
    short_id: { type: 'string', writable: false, description: 'Short ID of the alert' },
    summary: { type: 'string', required: true, minLength: 1, maxLength: 10000, searchable: true, description: 'The summary of the alert' },
    description: text('The description of the alert', { maxLength: 100000, searchable: true }),
    source: { type: 'string', default: 'api', minLength: 1, maxLength: 255, filter: LIST_OPS, description: 'Deprecated. Accepted for backwards compatibility; new clients should omit. Defaults to `api`.' },
    status: { type: 'string', enum: ALERT_STATUSES, filter: LIST_OPS, sortable: true, description: 'The status of the alert; set on update through the alert lifecycle (docs/alert-lifecycle.md)' },
    noise: text('Whether the alert is marked as noise', { enum: ['noise', 'not_noise'], filter: ['eq', 'in', 'null', 'not_null'] }),
    external_id: text('External ID', { filter: ['eq', 'in'] }),
    external_url: text('External Url'),
    deduplication_key: text('Alerts sharing the same deduplication key are treated as a single alert.', { maxLength: 1000, writable: 'create', filter: ['eq', 'in'] }),
    alert_source_id: text('The ID of the alert source the alert came in through (null for alerts posted to /v1/alerts); deduplication and resolution are scoped to it', {
      format: 'uuid',
      writable: false,
      filter: ['eq', 'not_eq', 'in', 'not_in', 'null', 'not_null'],
    }),
    alert_urgency_id: text('The ID of the alert urgency', { format: 'uuid', filter: ['eq', 'not_eq', 'in', 'not_in', 'null', 'not_null'] }),
    notification_target_type: text('The type of the notification target', { enum: NOTIFICATION_TARGET_TYPES }),
    notification_target_id: text('The identifier of the notification target object'),
    notification_targets: {
      type: 'array',
      nullable: true,
      writable: 'create',
      items: { type: 'object', properties: { type: { type: 'string', enum: NOTIFICATION_TARGET_TYPES }, id: { type: 'string' } } },
      description: 'Several destinations to page; takes precedence over notification_target_type/notification_target_id',
    },
    service_ids: ids('The Service IDs to attach to the alert'),
    group_ids: ids('The Group IDs to attach to the alert'),
    environment_ids: ids('The Environment IDs to attach to the alert'),
    functionality_ids: ids('The Functionality IDs to attach to the alert'),
    labels: { type: 'array', items: { type: 'object' }, default: [], alwaysStored: true, description: 'Labels of the alert: {key, value} pairs' },
    data: { type: 'object', nullable: true, description: 'Additional data' },
    started_at: time('When the alert started'),
    ended_at: time('When the alert ended'),
    snoozed_until: { type: 'date-time', nullable: true, writable: false, description: 'When a deferred alert is triggered again' },
    incident_ids: {
      type: 'array',
      items: { type: 'string', format: 'uuid' },
      writable: false,
      alwaysStored: true,
      default: [],
      filter: ['eq', 'in'],
      description: 'IDs of the incidents the alert is attached to (POST /v1/incidents/{id}/alerts)',
    },
    // Alert groups (docs/alert-groups.md): set at ingestion, never by a client.
    alert_group_id: text('The ID of the alert group the alert is in (Taproot; the reference names it by the alert_group relationship)', { format: 'uuid', writable: false, filter: ['eq', 'in', 'null', 'not_null'] }),
    group_leader_alert_id: text('The ID of the group leader alert', { format: 'uuid', writable: false, filter: ['eq', 'in', 'null', 'not_null'] }),
    is_group_leader_alert: { type: 'boolean', nullable: true, writable: false, description: 'Whether the alert is a group leader alert' },
    alert_field_values: {
      type: 'array',
      writable: false,
      alwaysStored: true,
      default: [],
      items: {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'Unique ID of the alert field value' },
          alert_field_id: { type: 'string', description: 'ID of the custom alert field' },
          alert_id: { type: 'string', description: 'ID of the alert' },
          value: { type: 'string', description: 'Value for the alert field' },
          created_at: { type: 'string', description: 'Date of creation' },
          updated_at: { type: 'string', description: 'Date of last update' },
        },
      },
      description: "Custom alert field values associated with the alert: what its alert source's alert_source_fields_attributes gave it at ingestion (docs/alert-fields.md)",
    },
  },
  // The reference's include enum (listAlerts, getAlert, listIncidentAlerts); alert-includes.ts
  // serves them. `notified_users`, `responders` and `escalation_policies` are named by no attribute:
  // the alert's sent notifications, its acknowledging or resolving events and its paging tracks name them (docs/paging.md).
  relationships: {
    environments: { type: 'environments', many: true, idAttribute: 'environment_ids' },
    services: { type: 'services', many: true, idAttribute: 'service_ids' },
    groups: { type: 'groups', many: true, idAttribute: 'group_ids' },
    functionalities: { type: 'functionalities', many: true, idAttribute: 'functionality_ids' },
    responders: { type: 'users', many: true },
    incidents: { type: 'incidents', many: true, idAttribute: 'incident_ids' },
    notified_users: { type: 'users', many: true },
    events: { type: 'alert_events', many: true },
    alert_urgency: { type: 'alert_urgencies', many: false, idAttribute: 'alert_urgency_id' },
    heartbeat: { type: 'heartbeats', many: false, absent: true },
    live_call_router: { type: 'live_call_routers', many: false, absent: true },
    alert_group: { type: 'alert_groups', many: false, idAttribute: 'alert_group_id' },
    group_leader_alert: { type: 'alerts', many: false, idAttribute: 'group_leader_alert_id' },
    group_member_alerts: { type: 'alerts', many: true },
    alert_field_values: { type: 'alert_field_values', many: true, absent: true },
    alerting_targets: { type: 'alerting_targets', many: true, absent: true },
    escalation_policies: { type: 'escalation_policies', many: true },
    alert_call_recording: { type: 'alert_call_recordings', many: false, absent: true },
  },
});

/**
 * A list filter on records the alert names: ids, slugs or names (`services`), or `key:value`
 * labels. Each value is a string (the OpenAPI generator declares scalar filters only); the
 * rewrite's target is the stored list, which matches by overlap.
 */
const byRecord = (description: string): AttributeDef => ({ type: 'string', virtual: true, filter: LIST_OPS, description });

/**
 * The reference's `GET /v1/alerts` filters on the alert's services, groups, environments and
 * labels: declared like attributes (parsed, validated, in the OpenAPI document), then rewritten
 * by the list into conditions on `service_ids`, `group_ids`, `environment_ids` and `label_pairs`.
 */
export const ALERT_LIST_FILTERS = {
  services: byRecord('Service IDs, slugs or names'),
  groups: byRecord('Group (team) IDs, slugs or names'),
  environments: byRecord('Environment IDs, slugs or names'),
  labels: byRecord('Labels as key:value, e.g. host:db1'),
} as const;

/**
 * The list's query declaration: the alert's attributes, the filters above (virtual) and the read
 * model's generated `label_pairs`; its rows are answered as `alertSchema`.
 */
export const alertListSchema = defineResource({
  ...alertSchema,
  attributes: {
    ...alertSchema.attributes,
    ...ALERT_LIST_FILTERS,
    label_pairs: { type: 'array', items: { type: 'string' }, writable: false },
    // The stored labels, selected under another name (`labels` is the filter here).
    label_object: { type: 'array', items: { type: 'object' }, writable: false, column: 'labels' },
  },
});

export const alertDefinition: ResourceDefinition = {
  schema: alertSchema,
  context: 'alerting',
  table: 'alerts',
  permission: { family: 'alerts' },
};

/** An operation's body schema (reference `escalate_alert`, `resolve_alert`): `data.type` alerts, these attributes only. */
const alertOperationBody = (singular: string, attributes: Record<string, AttributeDef>) =>
  defineResource({ type: 'alerts', singular, path: '/v1/alerts', readTable: 'alerts_read', defaultSort: 'created_at', operations: [], attributes });

/** The body of `POST /v1/alerts/{id}/escalate`: the policy to escalate to and its level, both optional. */
export const escalateAlertSchema = alertOperationBody('escalate_alert', {
  escalation_policy_id: { type: 'string', minLength: 1, nullable: true, description: "The ID of the escalation policy to escalate to; omitted, the alert's current one" },
  escalation_policy_level: { type: 'integer', minimum: 1, nullable: true, description: 'The escalation policy level to escalate to; omitted, the next level' },
});

/** The body of `POST /v1/alerts/{id}/resolve`: how it was resolved, and whether its incidents go with it. */
export const resolveAlertSchema = alertOperationBody('resolve_alert', {
  resolution_message: { type: 'string', maxLength: 10000, nullable: true, description: 'How was the alert resolved?' },
  resolve_related_incidents: { type: 'boolean', nullable: true, description: 'Resolve all associated incidents' },
});

/** The body of `POST /v1/alerts/{id}/snooze` (reference `snooze_alert`); the lifecycle checks the bounds (400). */
export const snoozeAlertSchema = alertOperationBody('snooze_alert', {
  delay_minutes: { type: 'integer', required: true, minimum: SNOOZE_MINUTES.minimum, maximum: SNOOZE_MINUTES.maximum, description: 'Number of minutes to snooze the alert for' },
});
