import { asText, IngestionError } from './alert-draft';
import { evaluateJsonPath, JsonPathError, parseJsonPath, type JsonPathStep } from './json-path';

/**
 * The templates alert sources fill from a payload (`alert_template_attributes`, the
 * `template_body` of `alert_source_fields_attributes`): a bare JSON Path (`$.title`) gives the
 * value there; any other text is kept as written with each `{{ $.path }}` placeholder replaced by
 * the value at the path (empty when there is none), so text without placeholders is a constant.
 * The hosted API's Liquid names the payload `alert.data`: `{{ alert.data.check.name }}` is taken
 * as `{{ $.check.name }}` (no other Liquid: `unsupportedLiquid` finds the rest).
 */
export type Template = { kind: 'path'; steps: JsonPathStep[] } | { kind: 'text'; text: string; parts: Map<string, JsonPathStep[]> };

const PLACEHOLDER = /\{\{\s*(\$[^}]*?|alert\.data(?![\w$])[^}]*?)\s*\}\}/g;
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

/** The template compiled once; a bad path in it throws IngestionError naming `field`. */
export function compileTemplate(field: string, template: string): Template {
  const trimmed = template.trim();
  if (trimmed.startsWith('$')) return { kind: 'path', steps: compilePath(field, trimmed) };
  const parts = new Map<string, JsonPathStep[]>();
  for (const match of template.matchAll(PLACEHOLDER)) parts.set(match[1], compilePath(field, pathOf(match[1])));
  return { kind: 'text', text: template, parts };
}

/** The template's text for the payload; null when there is no template or its path finds nothing. */
export function renderTemplate(template: Template | undefined, payload: unknown): string | null {
  if (!template) return null;
  if (template.kind === 'path') return asText(evaluateJsonPath(payload, template.steps));
  return template.text.replace(PLACEHOLDER, (_all, path: string) => asText(evaluateJsonPath(payload, template.parts.get(path) ?? [])) ?? '');
}

/** The first Liquid markup other than the placeholders above (`{{ alert.summary }}`, a filter, a `{% tag %}`), or null. */
export function unsupportedLiquid(template: string): string | null {
  return /\{\{[^}]*\}\}|\{%[^%]*%\}/.exec(template.replace(PLACEHOLDER, ''))?.[0] ?? null;
}
