/**
 * HTML built only from template literals: `html` escapes every interpolated value unless it is the
 * output of another `html` call, so no text a status page's editors or an incident's responders
 * wrote can become markup. (The auth app's interaction pages have the same helper in
 * apps/auth/src/interactions/html.ts; a context cannot import an app.)
 */
export class Html {
  constructor(readonly value: string) {}
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text and attribute values alike (attributes are always double-quoted here); also valid XML. */
export const escapeMarkup = (value: string): string => value.replace(/[&<>"']/g, (c) => ENTITIES[c]);

export type Part = Html | string | number | null | undefined | false | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeMarkup(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  return new Html(strings.reduce((out, literal, i) => out + literal + (i < values.length ? render(values[i]) : ''), ''));
}
