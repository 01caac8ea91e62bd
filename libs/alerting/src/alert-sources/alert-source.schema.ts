import { randomBytes, randomUUID } from 'node:crypto';
import { defineResource, JsonApiError, type AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition, Row } from '@taproot/resources';
import { checkUrgency } from '../alerts/alert-commands';
import { validateGenericWebhookConfig, type GenericWebhookConfig } from '../ingestion';
import { NOTIFICATION_TARGET_TYPES } from '../alerts/alert.schema';

/** The reference's `alerts_source.source_type` values. Ingestion maps `generic_webhook` and `alertmanager` (docs/alert-sources.md). */
export const ALERT_SOURCE_TYPES = [
  'email', 'app_dynamics', 'catchpoint', 'cloudflare', 'datadog', 'dynatrace', 'alertmanager', 'google_cloud', 'grafana', 'sentry', 'generic_webhook',
  'cloud_watch', 'aws_sns', 'checkly', 'azure', 'new_relic', 'splunk', 'chronosphere', 'app_optics', 'bug_snag', 'honeycomb', 'monte_carlo', 'nagios', 'prtg',
] as const;
export const ALERT_SOURCE_STATUSES = ['connected', 'setup_complete', 'setup_incomplete'] as const;

const text = (description: string, more: Partial<AttributeDef> = {}): AttributeDef => ({ type: 'string', nullable: true, description, ...more });
const str = (description: string, more: Partial<AttributeDef> = {}): AttributeDef => ({ type: 'string', description, ...more });
const conditionable = {
  conditionable_id: text('The ID of the conditionable. If conditionable_type is AlertField, this is the ID of the alert field.'),
  conditionable_type: text('The type of the conditionable', { enum: ['AlertField'] }),
  kind: str('The kind of the conditionable', { enum: ['payload', 'alert_field'] }),
};

/**
 * An alert source (reference `alerts_source`): where alerts come from, how a sender's payload maps
 * to alerts (generic webhook JSON Paths, templates, deduplication), and the credentials of its
 * inbound endpoint: `secret` (generated, output only) and `webhook_endpoint` (absolute URL on the
 * API's public base URL, `PUBLIC_URL`). docs/alert-sources.md.
 */
export const alertSourceSchema = defineResource({
  type: 'alert_sources',
  singular: 'alerts_source',
  path: '/v1/alert_sources',
  readTable: 'alert_sources_read',
  defaultSort: 'name',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the alert source' },
    source_type: { type: 'string', enum: ALERT_SOURCE_TYPES, default: 'generic_webhook', filter: true, description: 'The alert source type' },
    status: { type: 'string', enum: ALERT_SOURCE_STATUSES, writable: false, default: 'setup_complete', filter: true, description: 'The status of the alert source' },
    enabled: { type: 'boolean', default: true, filter: true, description: 'Whether the alert source is enabled. Disabled sources do not create alerts from incoming events.' },
    secret: { type: 'string', writable: false, description: 'The secret used to authenticate non-email alert sources (HMAC key of X-Taproot-Signature, or the ?secret= query)' },
    webhook_endpoint: text('The URL senders post alerts to', { writable: false }),
    email: text('The email generated for email alert sources (not generated yet)', { writable: false }),
    owner_group_ids: { type: 'array', nullable: true, items: { type: 'string' }, description: 'List of team IDs that will own the alert source' },
    alert_urgency_id: text('ID for the default alert urgency assigned to this alert source', { format: 'uuid' }),
    alert_template_attributes: {
      type: 'object',
      nullable: true,
      properties: { title: text('The alert title.'), description: text('The alert description.'), external_url: text('The alert URL.') },
      description: 'Templates of the alert: a JSON Path, or text with {{ $.path }} placeholders',
    },
    alert_source_fields_attributes: {
      type: 'array',
      nullable: true,
      items: { type: 'object', properties: { alert_field_id: str('The ID of the alert field'), template_body: text("Liquid expression to extract a specific value from the alert's payload") } },
      description: 'List of alert fields to be added to the alert source',
    },
    alert_source_urgency_rules_attributes: {
      type: 'array',
      nullable: true,
      items: {
        type: 'object',
        properties: {
          alert_urgency_id: str('The ID of the alert urgency'),
          ...conditionable,
          json_path: text("JSON path expression to extract a specific value from the alert's payload"),
          operator: str('Comparison operator', { enum: ['is', 'is_not', 'contains', 'does_not_contain'] }),
          value: str('Value that the extracted payload data is compared to'),
        },
      },
      description: 'Rules that set the alert urgency from the alert payload (stored; applied by a later issue)',
    },
    sourceable_attributes: {
      type: 'object',
      nullable: true,
      properties: {
        auto_resolve: { type: 'boolean', description: 'Resolve the alert when the mapped state equals resolve_state' },
        resolve_state: text('The mapped state value that resolves the alert'),
        accept_threaded_emails: { type: 'boolean', description: 'Accept threaded emails (email sources)' },
        notification_target_type: text('The type of the notification target (email sources)', { enum: NOTIFICATION_TARGET_TYPES }),
        notification_target_id: text('The notification target id (email sources)'),
        field_mappings_attributes: {
          type: 'array',
          nullable: true,
          items: { type: 'object', properties: { field: str('The alert attribute'), json_path: str('The JSON Path of its value in the payload') } },
          description: 'JSON Path mappings of the payload to alert attributes',
        },
      },
      description: 'Source type specific attributes',
    },
    resolution_rule_attributes: {
      type: 'object',
      nullable: true,
      properties: {
        enabled: { type: 'boolean', description: 'Set this to true to enable the auto resolution rule' },
        condition_type: str('The type of condition to evaluate', { enum: ['all', 'any'] }),
        identifier_json_path: text('JSON path expression to extract unique alert identifier'),
        identifier_value_regex: text('Regex group to further specify the identifier'),
        identifier_matchable_id: text('The ID of the identifier matchable'),
        identifier_matchable_type: text('The type of the identifier matchable', { enum: ['AlertField'] }),
        identifier_reference_kind: str('The kind of the identifier reference', { enum: ['payload', 'alert_field'] }),
        conditions_attributes: {
          type: 'array',
          nullable: true,
          items: {
            type: 'object',
            properties: {
              ...conditionable,
              field: text("JSON path expression to extract a specific value from the alert's payload"),
              operator: str('Comparison operator', { enum: ['is', 'is_not', 'contains', 'does_not_contain', 'starts_with', 'ends_with'] }),
              value: str('Value compared with the extracted value'),
            },
          },
          description: 'List of conditions to evaluate for auto resolution',
        },
      },
      description: 'Auto resolution rule (stored; applied by a later issue)',
    },
    deduplicate_alerts_by_key: { type: 'boolean', default: false, description: 'Toggle alert deduplication using deduplication key' },
    deduplication_key_kind: text('Kind of deduplication key.', { enum: ['payload'] }),
    deduplication_key_path: text('JSON Path of the deduplication key in the request body'),
    deduplication_key_regexp: text('Regular expression to extract key from value found at key path.', { maxLength: 1000 }),
  },
});

/** The API's public base URL, set from configuration when the alerting module starts (`PUBLIC_URL`). */
export const alertSourceEndpoints = { base: 'http://127.0.0.1:3000' };
export const inboundPath = (id: string) => `/v1/alert_sources/${id}/alerts`;

/** `a.b[0].c` as the JSON pointer tail `a/b/0/c`. */
export const pointerOf = (field: string) => field.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean).join('/');

/** Generic webhook mappings are checked up front: a bad JSON Path or regexp answers 422 naming the attribute. */
function checkMapping(attributes: Row): void {
  if (attributes.source_type !== 'generic_webhook') return;
  const problems = validateGenericWebhookConfig(attributes as GenericWebhookConfig);
  if (problems.length) throw JsonApiError.invalidAttributes(problems.map((p) => ({ attribute: pointerOf(p.field), detail: `${p.field}: ${p.message}`, code: 'INVALID_ALERT_SOURCE_CONFIG' })));
}

export const alertSourceDefinition: ResourceDefinition = {
  schema: alertSourceSchema,
  context: 'alerting',
  table: 'alert_sources',
  // The on-call family has no `read` (spec): reads check `alerts` read (docs/alert-sources.md).
  permission: { family: 'alert_sources', reads: { family: 'alerts', action: 'read' } },
  teamOwnership: { column: 'owner_group_ids' },
  rules: {
    async beforeCreate(attributes, ctx) {
      checkMapping(attributes);
      await checkUrgency(ctx, attributes);
      const id = randomUUID();
      return { ...attributes, id, secret: randomBytes(32).toString('hex'), webhook_endpoint: `${alertSourceEndpoints.base}${inboundPath(id)}` };
    },
    async beforeUpdate(current, changes, ctx) {
      checkMapping({ ...current, ...changes });
      await checkUrgency(ctx, changes);
      return changes;
    },
  },
};

/** The inbound route's URLs: monitoring tools post `application/json` there, not JSON:API (the api's media-type rule lets it through). */
export const INBOUND_ALERTS_URL = /^\/v1\/alert_sources\/[^/?#]+\/alerts(?:[?#]|$)/;
