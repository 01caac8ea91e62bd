import { clipSummary, IngestionError, type AlertDraft } from './alert-draft';
import { compileTemplate, renderTemplate, unsupportedLiquid, type Template, type TemplateAlert } from './template';

/**
 * An alert source's `alert_source_fields_attributes[]` `{ alert_field_id, template_body }` applied
 * to each draft a mapper made (docs/alert-fields.md). The template (template.ts: a JSON Path, or
 * text with `{{ $.path }}`, `{{ alert.data.path }}` or `{{ alert.<name> }}` placeholders, or constant
 * text) renders over the payload item and the mapper's draft (`liquidAlert`); a value
 * that renders non-empty wins over what the mapper made:
 * - the built-in fields fill the alert attribute of their kind: title -> summary, description,
 *   external_url, external_id; state -> the draft resolves when it equals the source's
 *   `resolve_state` (auto_resolve not false), as the `state` field mapping does;
 * - a custom field's value goes into the draft's `alert_field_values`.
 * A field without a template keeps the mapper's value (the hosted API's "default value").
 */
export interface AlertSourceField {
  alert_field_id?: string | null;
  template_body?: string | null;
}

export interface AlertFieldsConfig {
  alert_source_fields_attributes?: AlertSourceField[] | null;
  sourceable_attributes?: { auto_resolve?: boolean | null; resolve_state?: string | null } | null;
  /** The source's type: `{{ alert.source }}`. */
  source_type?: string | null;
}

/** The organization's built-in fields: id -> kind (built-in-alert-fields.ts). */
export type BuiltInFields = Readonly<Record<string, string>>;

const FIELDS = 'alert_source_fields_attributes';

function compileField(field: AlertSourceField, i: number): { id: string; template: Template | undefined } {
  if (typeof field.alert_field_id !== 'string' || field.alert_field_id === '') throw new IngestionError(`${FIELDS}[${i}].alert_field_id`, 'an alert field is required');
  const template = field.template_body ? compileTemplate(`${FIELDS}[${i}].template_body`, field.template_body, true) : undefined;
  return { id: field.alert_field_id.toLowerCase(), template };
}

/** Every problem of the source's fields attributes (empty when they can be applied); fields are attribute paths. */
export function validateAlertSourceFields(config: AlertFieldsConfig): IngestionError[] {
  return (config.alert_source_fields_attributes ?? []).flatMap((field, i) => {
    try {
      compileField(field, i);
      // Refused up front rather than rendered as written: the hosted API would have run it.
      const liquid = field.template_body ? unsupportedLiquid(field.template_body, true) : null;
      if (liquid) return [new IngestionError(`${FIELDS}[${i}].template_body`, `${liquid}: only {{ $.path }}, {{ alert.data.path }} and {{ alert.<attribute> }} placeholders are supported`)];
      return [];
    } catch (error) {
      if (!(error instanceof IngestionError)) throw error;
      return [error];
    }
  });
}

/**
 * What `{{ alert.<name> }}` reads: the alert the mapper built, before any field applies (so fields
 * never see each other's values, whatever their order). `title` is the summary (the reference's
 * name for it); the urgency is decided after the fields (urgency rules read them), so `urgency`,
 * like any name not listed, renders empty.
 */
export function liquidAlert(config: AlertFieldsConfig, draft: AlertDraft): TemplateAlert {
  return {
    title: draft.summary,
    summary: draft.summary,
    description: draft.description,
    external_id: draft.external_id,
    external_url: draft.external_url,
    deduplication_key: draft.deduplication_key,
    started_at: draft.started_at,
    ended_at: draft.ended_at,
    status: draft.resolve ? 'resolved' : 'triggered',
    source: config.source_type ?? null,
  };
}

/** The draft with the source's fields applied (a new object; the mapper's draft is left as it was). */
export function applyAlertFields(config: AlertFieldsConfig, builtIns: BuiltInFields, draft: AlertDraft): AlertDraft {
  const fields = (config.alert_source_fields_attributes ?? []).map(compileField);
  if (fields.length === 0) return draft;
  const alert = liquidAlert(config, draft);
  const out: AlertDraft = { ...draft, alert_field_values: [...(draft.alert_field_values ?? [])] };
  for (const { id, template } of fields) {
    const value = renderTemplate(template, draft.data, alert);
    if (value === null || value.trim() === '') continue;
    switch (builtIns[id]) {
      case undefined:
      case 'custom':
        out.alert_field_values = [...out.alert_field_values!.filter((v) => v.alert_field_id !== id), { alert_field_id: id, value }];
        break;
      case 'title':
        out.summary = clipSummary(value);
        break;
      case 'description':
      case 'external_url':
      case 'external_id':
        out[builtIns[id] as 'description' | 'external_url' | 'external_id'] = value;
        break;
      case 'state': {
        out.state = value;
        const auto = config.sourceable_attributes?.auto_resolve !== false;
        const resolveState = config.sourceable_attributes?.resolve_state ?? null;
        out.resolve = auto && resolveState !== null && value === resolveState;
        break;
      }
    }
  }
  return out;
}

/**
 * The draft's value of an alert field, as rules on alert fields see it: a custom field's stored
 * value, a built-in field's alert attribute (state: the value its template rendered); undefined
 * when the draft has none.
 */
export function draftFieldValue(draft: AlertDraft, builtIns: BuiltInFields, fieldId: string): unknown {
  const id = fieldId.toLowerCase();
  const kind = builtIns[id];
  if (kind === 'title') return draft.summary;
  if (kind === 'description' || kind === 'external_url' || kind === 'external_id') return draft[kind] ?? undefined;
  if (kind === 'state') return draft.state ?? undefined;
  return draft.alert_field_values?.find((v) => v.alert_field_id === id)?.value;
}
