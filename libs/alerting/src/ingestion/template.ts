import { asText, IngestionError } from './alert-draft';
import { evaluateJsonPath, JsonPathError, parseJsonPath, type JsonPathStep } from './json-path';

/**
 * The templates alert sources fill from a payload (`alert_template_attributes`, the
 * `template_body` of `alert_source_fields_attributes`): a bare JSON Path (`$.title`) gives the
 * value there; any other text is kept as written with each `{{ $.path }}` placeholder replaced by
 * the value at the path (empty when there is none), so text without placeholders is a constant.
 * The hosted API's Liquid names the payload `alert.data`: `{{ alert.data.check.name }}` is taken
 * as `{{ $.check.name }}`. Templates compiled `withAlert` (an alert field's, applied to the alert
 * being built) also take `{{ alert.<name> }}`: the alert's attribute of that name, empty when it
 * has none (as Liquid renders an unknown variable). No other Liquid: `unsupportedLiquid` finds the rest.
 */
export type Template = { kind: 'path'; steps: JsonPathStep[] } | { kind: 'text'; text: string; parts: Map<string, TemplatePart> };
/** A placeholder: a JSON Path into the payload, or an attribute of the alert. */
type TemplatePart = { steps: JsonPathStep[] } | { attribute: string };
/** The attributes `{{ alert.<name> }}` reads (alert-fields.ts `liquidAlert`). */
export type TemplateAlert = Readonly<Record<string, unknown>>;

const PAYLOAD_PLACEHOLDER = String.raw`\$[^}]*?|alert\.data(?![\w$])[^}]*?`;
const ALERT_PLACEHOLDER = String.raw`alert\.(?!data(?![\w$]))[A-Za-z_]\w*`;
const placeholders = (withAlert: boolean) => new RegExp(String.raw`\{\{\s*(${PAYLOAD_PLACEHOLDER}${withAlert ? `|${ALERT_PLACEHOLDER}` : ''})\s*\}\}`, 'g');
const PLACEHOLDER = placeholders(false);
const ALERT_TEMPLATE_PLACEHOLDER = placeholders(true);
const LIQUID_PAYLOAD = 'alert.data';
/** A placeholder's JSON Path: Liquid's `alert.data` is the payload's root. */
const pathOf = (placeholder: string) => (placeholder.startsWith(LIQUID_PAYLOAD) ? `$${placeholder.slice(LIQUID_PAYLOAD.length)}` : placeholder);

/** The path's steps; a bad path throws IngestionError naming `field`. */
export function compilePath(field: string, path: string): JsonPathStep[] {
  try {
    return parseJsonPath(path);
  } catch (error) {
    if (error instanceof JsonPathError) throw new IngestionError(field, error.message);
    throw error;
  }
}

const placeholderOf = (withAlert: boolean) => (withAlert ? ALERT_TEMPLATE_PLACEHOLDER : PLACEHOLDER);
const isAlertAttribute = (placeholder: string) => placeholder.startsWith('alert.') && !placeholder.startsWith(LIQUID_PAYLOAD);

/** The template compiled once; a bad path in it throws IngestionError naming `field`. `withAlert`: it takes `{{ alert.<name> }}`. */
export function compileTemplate(field: string, template: string, withAlert = false): Template {
  const trimmed = template.trim();
  if (trimmed.startsWith('$')) return { kind: 'path', steps: compilePath(field, trimmed) };
  const parts = new Map<string, TemplatePart>();
  for (const match of template.matchAll(placeholderOf(withAlert))) {
    const placeholder = match[1];
    parts.set(placeholder, isAlertAttribute(placeholder) ? { attribute: placeholder.slice('alert.'.length) } : { steps: compilePath(field, pathOf(placeholder)) });
  }
  return { kind: 'text', text: template, parts };
}

/** The template's text for the payload (and the alert's attributes); null when there is no template or its path finds nothing. */
export function renderTemplate(template: Template | undefined, payload: unknown, alert: TemplateAlert = {}): string | null {
  if (!template) return null;
  if (template.kind === 'path') return asText(evaluateJsonPath(payload, template.steps));
  return template.text.replace(ALERT_TEMPLATE_PLACEHOLDER, (all: string, placeholder: string) => {
    const part = template.parts.get(placeholder);
    if (!part) return all;
    const value = 'attribute' in part ? (Object.hasOwn(alert, part.attribute) ? alert[part.attribute] : null) : evaluateJsonPath(payload, part.steps);
    return asText(value) ?? '';
  });
}

/** The first Liquid markup other than the placeholders above (a filter, a `{% tag %}`, `{{ alert.<name> }}` unless `withAlert`), or null. */
export function unsupportedLiquid(template: string, withAlert = false): string | null {
  return /\{\{[^}]*\}\}|\{%[^%]*%\}/.exec(template.replace(placeholderOf(withAlert), ''))?.[0] ?? null;
}
