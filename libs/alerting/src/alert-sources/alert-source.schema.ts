import { randomBytes, randomUUID } from 'node:crypto';
import { existingTeamIds } from '@taproot/identity';
import { defineResource, existingIds, JsonApiError, type AttributeDef } from '@taproot/json-api';
import type { ResourceDefinition, Row, WriteContext } from '@taproot/resources';
import { checkUrgency } from '../alerts/alert-writes';
import { checkNotificationTarget } from '../alerts/notification-targets';
import { validateAlertSourceFields, validateGenericWebhookConfig, validateIngestionRules, type AlertFieldsConfig, type GenericWebhookConfig, type IngestionError, type IngestionRulesConfig, type UrgencyRule } from '../ingestion';
import { NOTIFICATION_TARGET_TYPES } from '../alerts/alert.schema';
import { AlertingErrorCode } from '../errors';

/** The reference's `alerts_source.source_type` values. Ingestion maps `generic_webhook`, `alertmanager` and `email` (docs/alert-sources.md). */
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
  // The reference's plural list filters: comma-separated, any of them.
  listFilters: {
    statuses: { type: 'string', enum: ALERT_SOURCE_STATUSES, column: 'status', filter: true, description: 'Statuses, comma-separated: sources in any of them' },
    source_types: { type: 'string', enum: ALERT_SOURCE_TYPES, column: 'source_type', filter: true, description: 'Source types, comma-separated: sources of any of them' },
  },
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the alert source' },
    source_type: { type: 'string', enum: ALERT_SOURCE_TYPES, default: 'generic_webhook', filter: true, description: 'The alert source type' },
    status: { type: 'string', enum: ALERT_SOURCE_STATUSES, writable: false, default: 'setup_complete', filter: true, description: 'The status of the alert source' },
    enabled: { type: 'boolean', default: true, filter: true, description: 'Whether the alert source is enabled. Disabled sources do not create alerts from incoming events.' },
    secret: { type: 'string', writable: false, description: 'The secret used to authenticate non-email alert sources (HMAC key of X-Taproot-Signature, or the ?secret= query)' },
    webhook_endpoint: text('The URL senders post alerts to', { writable: false }),
    email: text('The email generated for email alert sources (none is generated: mail is posted to /v1/alert_sources/{id}/emails)', { writable: false }),
    owner_group_ids: { type: 'array', nullable: true, items: { type: 'string' }, default: [], alwaysStored: true, description: 'List of team IDs that will own the alert source (teams of the organization; null clears to [])' },
    // Left out while unset: the reference's answer declares it non-nullable.
    alert_urgency_id: text('ID for the default alert urgency assigned to this alert source', { format: 'uuid', omitWhenNull: true }),
    alert_template_attributes: {
      type: 'object',
      nullable: true,
      properties: { title: text('The alert title.'), description: text('The alert description.'), external_url: text('The alert URL.') },
      description: 'Templates of the alert: a JSON Path, or text with {{ $.path }} placeholders',
    },
    alert_source_fields_attributes: {
      type: 'array',
      nullable: true,
      default: [],
      alwaysStored: true,
      items: { type: 'object', properties: { alert_field_id: str('The ID of the alert field'), template_body: text("Liquid expression to extract a specific value from the alert's payload") } },
      description: "List of alert fields to be added to the alert source: each template_body (a JSON Path, or text with {{ $.path }} placeholders) gives the alert's value of the field at ingestion",
    },
    alert_source_urgency_rules_attributes: {
      type: 'array',
      nullable: true,
      default: [],
      alwaysStored: true,
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
      description: 'Rules that set the alert urgency from the alert payload or its alert field values: the first that holds gives the urgency, else alert_urgency_id',
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
      description: "Auto resolution rule: when enabled and its conditions hold, an item resolves the source's unresolved alert whose deduplication key is the identifier instead of opening one",
    },
    deduplicate_alerts_by_key: { type: 'boolean', default: false, description: 'Toggle alert deduplication using deduplication key' },
    deduplication_key_kind: str('Kind of deduplication key (the only kind: payload)', { enum: ['payload'], default: 'payload', nullable: true, alwaysStored: true }),
    deduplication_key_path: text('JSON Path of the deduplication key in the request body'),
    deduplication_key_regexp: text('Regular expression to extract key from value found at key path.', { maxLength: 1000 }),
  },
});

/** The API's public base URL, set from configuration when the alerting module starts (`PUBLIC_URL`). */
export const alertSourceEndpoints = { base: 'http://127.0.0.1:3000' };
export const inboundPath = (id: string) => `/v1/alert_sources/${id}/alerts`;

/** `a.b[0].c` as the JSON pointer tail `a/b/0/c`. */
export const pointerOf = (field: string) => field.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean).join('/');

const invalid = (problems: IngestionError[]) => problems.map((p) => ({ attribute: pointerOf(p.field), detail: `${p.field}: ${p.message}`, code: AlertingErrorCode.InvalidAlertSourceConfig }));

/** Generic webhook mappings are checked up front: a bad JSON Path or regexp answers 422 naming the attribute. */
function checkMapping(attributes: Row): void {
  if (attributes.source_type !== 'generic_webhook') return;
  const problems = validateGenericWebhookConfig(attributes as GenericWebhookConfig);
  if (problems.length) throw JsonApiError.invalidAttributes(invalid(problems));
}

/**
 * Urgency and resolution rules are checked up front too (of the source after the change): a bad
 * JSON Path, operator or regexp, an `alert_field` condition, or an urgency rule naming no urgency
 * of the organization (checked for the rules a request sends) answers 422 naming the attribute;
 * then the default `alert_urgency_id` the request sends. One lookup of the urgencies for both.
 */
async function checkRulesAndUrgency(ctx: WriteContext, source: Row, changes: Row): Promise<void> {
  const problems = invalid(validateIngestionRules(source as IngestionRulesConfig));
  const rules = (changes.alert_source_urgency_rules_attributes ?? []) as UrgencyRule[];
  const named = rules.map((rule) => rule.alert_urgency_id).filter((id): id is string => typeof id === 'string' && id !== '');
  const urgency = changes.alert_urgency_id == null ? [] : [String(changes.alert_urgency_id)];
  const known = await existingIds(ctx.manager, 'alert_urgencies', ctx.organizationId, [...named, ...urgency]);
  rules.forEach(({ alert_urgency_id: id }, i) => {
    if (typeof id !== 'string' || id === '' || known.has(id)) return;
    const field = `alert_source_urgency_rules_attributes[${i}].alert_urgency_id`;
    problems.push({ attribute: pointerOf(field), detail: `${field}: ${id} is not an alert urgency of this organization`, code: AlertingErrorCode.UnknownAlertUrgency });
  });
  if (problems.length) throw JsonApiError.invalidAttributes(problems);
  await checkUrgency(ctx, changes, known);
}

/**
 * The alert fields a write names (`alert_source_fields_attributes`, and rules of kind
 * `alert_field`) must be fields of the organization, and the fields' templates must compile: else
 * 422 naming each element (docs/alert-fields.md).
 */
async function checkAlertFields(ctx: WriteContext, changes: Row): Promise<void> {
  const problems = invalid(validateAlertSourceFields(changes as AlertFieldsConfig));
  const fields = (changes as AlertFieldsConfig).alert_source_fields_attributes ?? [];
  const named: { field: string; id: unknown }[] = fields.map((f, i) => ({ field: `alert_source_fields_attributes[${i}].alert_field_id`, id: f.alert_field_id }));
  const rules = changes as IngestionRulesConfig;
  (rules.alert_source_urgency_rules_attributes ?? []).forEach((r, i) => r.kind === 'alert_field' && named.push({ field: `alert_source_urgency_rules_attributes[${i}].conditionable_id`, id: r.conditionable_id }));
  const resolution = rules.resolution_rule_attributes;
  (resolution?.conditions_attributes ?? []).forEach((c, i) => c.kind === 'alert_field' && named.push({ field: `resolution_rule_attributes.conditions_attributes[${i}].conditionable_id`, id: c.conditionable_id }));
  if (resolution?.identifier_reference_kind === 'alert_field') named.push({ field: 'resolution_rule_attributes.identifier_matchable_id', id: resolution.identifier_matchable_id });
  const ids = named.flatMap(({ id }) => (typeof id === 'string' && id !== '' ? [id.toLowerCase()] : []));
  const known = await existingIds(ctx.manager, 'alert_fields', ctx.organizationId, ids);
  for (const { field, id } of named) {
    if (typeof id !== 'string' || id === '' || known.has(id.toLowerCase())) continue;
    problems.push({ attribute: pointerOf(field), detail: `${field}: ${id} is not an alert field of this organization`, code: AlertingErrorCode.UnknownReference });
  }
  if (problems.length) throw JsonApiError.invalidAttributes(problems);
}

/** Lists the reference answers as arrays (never null): a null sent clears them to []. */
const LISTS = ['owner_group_ids', 'alert_source_fields_attributes', 'alert_source_urgency_rules_attributes'];

/**
 * The write's lists with null as [], its `deduplication_key_kind` null as `payload`, and its owners
 * checked: each must be a team of the organization (422 naming the element).
 */
async function withOwnersAndLists(ctx: WriteContext, input: Row): Promise<Row> {
  const attributes: Row = { ...input };
  for (const name of LISTS) if (name in attributes && attributes[name] === null) attributes[name] = [];
  if ('deduplication_key_kind' in attributes && attributes.deduplication_key_kind === null) attributes.deduplication_key_kind = 'payload';
  const owners = ((attributes.owner_group_ids as string[] | undefined) ?? []).map((id) => String(id).toLowerCase());
  const teams = await existingTeamIds(ctx.manager, ctx.organizationId, owners);
  const unknown = owners.flatMap((id, i) => (teams.has(id) ? [] : [{ attribute: `owner_group_ids/${i}`, detail: `owner_group_ids[${i}]: ${id} is not a team of this organization`, code: AlertingErrorCode.UnknownReference }]));
  if (unknown.length) throw JsonApiError.invalidAttributes(unknown);
  if (attributes.owner_group_ids !== undefined) attributes.owner_group_ids = [...new Set(owners)];
  return attributes;
}

export const alertSourceDefinition: ResourceDefinition = {
  schema: alertSourceSchema,
  context: 'alerting',
  table: 'alert_sources',
  // The on-call family has no `read` (spec): reads check `alerts` read (docs/alert-sources.md).
  permission: { family: 'alert_sources', reads: { family: 'alerts', action: 'read' } },
  teamOwnership: { column: 'owner_group_ids' },
  rules: {
    async beforeCreate(input, ctx) {
      const attributes = await withOwnersAndLists(ctx, input);
      checkMapping(attributes);
      await checkRulesAndUrgency(ctx, attributes, attributes);
      await checkAlertFields(ctx, attributes);
      await checkNotificationTarget(ctx, attributes.sourceable_attributes as Row | null | undefined, 'sourceable_attributes');
      const id = randomUUID();
      return { ...attributes, id, secret: randomBytes(16).toString('hex'), webhook_endpoint: `${alertSourceEndpoints.base}${inboundPath(id)}` };
    },
    async beforeUpdate(current, input, ctx) {
      const changes = await withOwnersAndLists(ctx, input);
      checkMapping({ ...current, ...changes });
      await checkRulesAndUrgency(ctx, { ...current, ...changes }, changes);
      await checkAlertFields(ctx, changes);
      await checkNotificationTarget(ctx, changes.sourceable_attributes as Row | null | undefined, 'sourceable_attributes');
      return changes;
    },
  },
};
