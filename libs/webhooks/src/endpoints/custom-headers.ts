import { WebhooksErrorCode, type Problem } from '../errors';

/** One of an endpoint's `custom_headers`: sent with every delivery, its value rendered at send time. */
export interface CustomHeader {
  name: string;
  value: string;
}

/**
 * Header names no custom header may take (compared case-insensitively): the dispatcher sets them
 * (content, signatures, user agent) or they frame the request itself.
 */
export const RESERVED_WEBHOOK_HEADERS = [
  'Content-Type',
  'Content-Length',
  'Host',
  'User-Agent',
  'Connection',
  'Transfer-Encoding',
  'X-Rootly-Signature',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
] as const;

const RESERVED = new Set<string>(RESERVED_WEBHOOK_HEADERS.map((name) => name.toLowerCase()));

export const isReservedWebhookHeader = (name: string): boolean => RESERVED.has(name.toLowerCase());

/** RFC 9110 `token` (field names): one or more tchar. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What would end the header line or the request: a value never holds them (nor does a secret). */
export const HEADER_BREAKING = /[\r\n\0]/;
const NAME = '[A-Za-z_][A-Za-z0-9_]*';
/** A secret's name: an identifier, as a template names it. */
export const SECRET_NAME = new RegExp(`^${NAME}$`);
/** `{{ secrets.NAME }}`, the spaces inside the braces optional. */
const SECRET_TEMPLATE = new RegExp(`\\{\\{\\s*secrets\\.(${NAME})\\s*\\}\\}`, 'g');
/** What opens a secret template: one the pattern above does not take is malformed. */
const TEMPLATE_OPENING = /\{\{\s*secrets\./g;

/** The secret names a header value references, each once, in order of appearance. */
export function secretNamesIn(value: string): string[] {
  return [...new Set([...value.matchAll(SECRET_TEMPLATE)].map((m) => m[1]))];
}

/** A secret a header value references does not exist (any more): the attempt cannot be sent. */
export class MissingSecretError extends Error {
  constructor(readonly secret: string) {
    super(`the secret ${secret} referenced by a custom header does not exist`);
    this.name = 'MissingSecretError';
  }
}

/**
 * A header value with each `{{ secrets.NAME }}` replaced by the secret's value (`secrets`: name ->
 * value, as `secretValues` answers); a name missing from the map throws `MissingSecretError`.
 */
export function renderHeaderValue(value: string, secrets: ReadonlyMap<string, string>): string {
  return value.replace(SECRET_TEMPLATE, (_, name: string) => {
    const secret = secrets.get(name);
    if (secret === undefined) throw new MissingSecretError(name);
    return secret;
  });
}

/**
 * What is wrong with custom headers beyond their declared shape (at most 10, name up to 256 and
 * value up to 8192 characters): a name that is no HTTP token, reserved or given twice; a value
 * with CR, LF or NUL, or a malformed secret template. Pointers `custom_headers/<i>/<member>`.
 */
export function customHeaderProblems(headers: readonly CustomHeader[]): Problem[] {
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const [i, { name, value }] of headers.entries()) {
    const at = `custom_headers/${i}`;
    const key = name.toLowerCase();
    if (!HTTP_TOKEN.test(name)) problems.push({ attribute: `${at}/name`, detail: `custom_headers[${i}].name must be an HTTP header name (letters, digits and !#$%&'*+-.^_\`|~)`, code: WebhooksErrorCode.InvalidHeader });
    else if (isReservedWebhookHeader(name)) problems.push({ attribute: `${at}/name`, detail: `custom_headers[${i}].name: ${name} is reserved (${RESERVED_WEBHOOK_HEADERS.join(', ')})`, code: WebhooksErrorCode.ReservedHeader });
    else if (seen.has(key)) problems.push({ attribute: `${at}/name`, detail: `custom_headers[${i}].name: ${name} is given twice`, code: WebhooksErrorCode.InvalidHeader });
    seen.add(key);
    if (HEADER_BREAKING.test(value)) problems.push({ attribute: `${at}/value`, detail: `custom_headers[${i}].value must not contain CR, LF or NUL`, code: WebhooksErrorCode.InvalidHeader });
    else if ((value.match(TEMPLATE_OPENING) ?? []).length !== [...value.matchAll(SECRET_TEMPLATE)].length) {
      problems.push({ attribute: `${at}/value`, detail: `custom_headers[${i}].value has a malformed secret template: write {{ secrets.NAME }}`, code: WebhooksErrorCode.InvalidHeader });
    }
  }
  return problems;
}
