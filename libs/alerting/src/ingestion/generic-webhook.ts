import {
  asText,
  emptyDraft,
  IngestionError,
  NOTIFICATION_TARGET_TYPES,
  type AlertDraft,
  type NotificationTargetType,
} from './alert-draft';
import { evaluateJsonPath, type JsonPathStep } from './json-path';
import { compilePath, compileTemplate, renderTemplate, type Template } from './template';

/**
 * `generic_webhook` sources: a JSON body mapped to one alert draft (or one per item of a JSON
 * array) with the source's JSON Path mappings. Attribute names are the reference's
 * `alerts_source` attributes:
 * - `sourceable_attributes.field_mappings_attributes[]`: `{ field, json_path }` with field one
 *   of external_id, state, alert_title, alert_description, alert_external_url,
 *   notification_target_type, notification_target_id;
 * - `sourceable_attributes.auto_resolve` / `resolve_state`: the draft resolves when the mapped
 *   `state` equals `resolve_state` (exact string match) and auto_resolve is not false;
 * - `alert_template_attributes` `{ title, description, external_url }`: used when no field
 *   mapping covers the attribute; either a bare JSON Path (`$.title`) or text with
 *   `{{ $.path }}` placeholders;
 * - `deduplicate_alerts_by_key`, `deduplication_key_path`, `deduplication_key_regexp`: the key
 *   is the value at the path, narrowed by the regexp (its first capture group, or the whole
 *   match); no match gives no key.
 * Bad configuration (an invalid path or regexp, an unknown field) throws IngestionError naming
 * the attribute; `validateGenericWebhookConfig` finds the same problems up front for the CRUD.
 */
export type MappedField =
  | 'external_id'
  | 'state'
  | 'alert_title'
  | 'alert_description'
  | 'alert_external_url'
  | 'notification_target_type'
  | 'notification_target_id';

export const MAPPED_FIELDS: readonly MappedField[] = [
  'external_id',
  'state',
  'alert_title',
  'alert_description',
  'alert_external_url',
  'notification_target_type',
  'notification_target_id',
];

export interface GenericWebhookConfig {
  alert_template_attributes?: { title?: string | null; description?: string | null; external_url?: string | null } | null;
  sourceable_attributes?: {
    field_mappings_attributes?: { field: string; json_path: string }[] | null;
    auto_resolve?: boolean;
    resolve_state?: string | null;
  } | null;
  deduplicate_alerts_by_key?: boolean;
  deduplication_key_path?: string | null;
  deduplication_key_regexp?: string | null;
}

export const DEFAULT_GENERIC_SUMMARY = 'Alert from generic webhook';
/** Values longer than this are not run through deduplication_key_regexp (bounds its cost). */
const MAX_REGEXP_INPUT = 4096;

interface Compiled {
  mappings: Map<MappedField, JsonPathStep[]>;
  templates: { title?: Template; description?: Template; external_url?: Template };
  dedupPath: JsonPathStep[] | null;
  dedupRegexp: RegExp | null;
  resolveState: string | null;
}

function compile(config: GenericWebhookConfig): Compiled {
  const mappings = new Map<MappedField, JsonPathStep[]>();
  const list = config.sourceable_attributes?.field_mappings_attributes ?? [];
  list.forEach((mapping, i) => {
    const attr = `sourceable_attributes.field_mappings_attributes[${i}]`;
    if (!MAPPED_FIELDS.includes(mapping.field as MappedField)) {
      throw new IngestionError(`${attr}.field`, `unknown field ${JSON.stringify(mapping.field)}`);
    }
    mappings.set(mapping.field as MappedField, compilePath(`${attr}.json_path`, mapping.json_path));
  });
  const templates: Compiled['templates'] = {};
  const t = config.alert_template_attributes ?? {};
  for (const key of ['title', 'description', 'external_url'] as const) {
    const value = t[key];
    if (value) templates[key] = compileTemplate(`alert_template_attributes.${key}`, value);
  }
  let dedupPath: JsonPathStep[] | null = null;
  let dedupRegexp: RegExp | null = null;
  if (config.deduplicate_alerts_by_key) {
    if (!config.deduplication_key_path) {
      throw new IngestionError('deduplication_key_path', 'required when deduplicate_alerts_by_key is true');
    }
    dedupPath = compilePath('deduplication_key_path', config.deduplication_key_path);
    if (config.deduplication_key_regexp) {
      try {
        dedupRegexp = new RegExp(config.deduplication_key_regexp);
      } catch (error) {
        throw new IngestionError('deduplication_key_regexp', `invalid regular expression: ${(error as Error).message}`);
      }
    }
  }
  const auto = config.sourceable_attributes?.auto_resolve !== false;
  const resolveState = auto ? (config.sourceable_attributes?.resolve_state ?? null) : null;
  return { mappings, templates, dedupPath, dedupRegexp, resolveState };
}

/** Every configuration problem as IngestionErrors (empty when the source can ingest). */
export function validateGenericWebhookConfig(config: GenericWebhookConfig): IngestionError[] {
  try {
    compile(config);
    return [];
  } catch (error) {
    if (error instanceof IngestionError) return [error];
    throw error;
  }
}

/** `value` narrowed by `regexp` (its first capture group, or the whole match); no match, or too long a value, gives null. */
export function narrowKey(value: string | null, regexp: RegExp | null): string | null {
  if (value === null || regexp === null) return value;
  if (value.length > MAX_REGEXP_INPUT) return null;
  const match = regexp.exec(value);
  if (!match) return null;
  return match[1] ?? match[0];
}

function mapOne(compiled: Compiled, item: unknown, index: number | null): AlertDraft {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    throw new IngestionError(index === null ? 'body' : `body[${index}]`, 'expected a JSON object');
  }
  const payload = item as Record<string, unknown>;
  const mapped = (field: MappedField): string | null => {
    const steps = compiled.mappings.get(field);
    return steps ? asText(evaluateJsonPath(payload, steps)) : null;
  };
  const title =
    mapped('alert_title') ??
    renderTemplate(compiled.templates.title, payload) ??
    asText(payload.title ?? payload.summary ?? payload.message);
  const draft = emptyDraft(title?.trim() ? title : DEFAULT_GENERIC_SUMMARY, payload);
  draft.description = mapped('alert_description') ?? renderTemplate(compiled.templates.description, payload);
  draft.external_url = mapped('alert_external_url') ?? renderTemplate(compiled.templates.external_url, payload);
  draft.external_id = mapped('external_id');
  if (compiled.dedupPath) {
    draft.deduplication_key = narrowKey(asText(evaluateJsonPath(payload, compiled.dedupPath)), compiled.dedupRegexp);
  }
  const targetType = mapped('notification_target_type');
  const targetId = mapped('notification_target_id');
  if (targetType !== null || targetId !== null) {
    if (targetType === null || targetId === null) {
      throw new IngestionError(
        targetType === null ? 'notification_target_type' : 'notification_target_id',
        'the payload gives only one of notification_target_type and notification_target_id',
      );
    }
    if (!NOTIFICATION_TARGET_TYPES.includes(targetType as NotificationTargetType)) {
      throw new IngestionError(
        'notification_target_type',
        `${JSON.stringify(targetType)} is not one of ${NOTIFICATION_TARGET_TYPES.join(', ')}`,
      );
    }
    draft.notification_target_type = targetType as NotificationTargetType;
    draft.notification_target_id = targetId;
  }
  const state = mapped('state');
  draft.resolve = compiled.resolveState !== null && state !== null && state === compiled.resolveState;
  return draft;
}

/** One draft for a JSON object body, one per item for a JSON array body. */
export function mapGenericWebhook(config: GenericWebhookConfig, body: unknown): AlertDraft[] {
  const compiled = compile(config);
  if (Array.isArray(body)) return body.map((item, i) => mapOne(compiled, item, i));
  return [mapOne(compiled, body, null)];
}
