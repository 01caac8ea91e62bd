/**
 * Server-rendered HTML without a template library (the auth app's interaction pages, the public
 * status page): `html` escapes every interpolated value unless it is already `Html` (the output of
 * another `html` call), so markup can only come from the literal parts of the templates, never
 * from text a user wrote.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text and attribute values alike (attributes are always double-quoted); also valid XML. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

export type Part = Html | string | number | null | undefined | false | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  return new Html(strings.reduce((out, literal, i) => out + literal + (i < values.length ? render(values[i]) : ''), ''));
}
