import { emptyDraft, IngestionError, type AlertDraft } from './alert-draft';

/**
 * `email` sources: an inbound email, either the raw RFC 822 / RFC 5322 message or the parsed
 * JSON form many inbound-mail relays post (`{ from, to, subject, text, html, message_id,
 * in_reply_to, references }`), mapped to one alert draft: summary from the subject,
 * description from the text body, external_id and deduplication_key from the thread.
 *
 * Raw messages: this is the subset monitoring senders use, written here rather than pulling a
 * MIME library: unfolded headers, RFC 2047 encoded words, a single part or a multipart (mixed /
 * alternative, nested) from which the first text/plain non-attachment is taken (else text/html,
 * tags stripped), quoted-printable / base64 / 7bit / 8bit transfer encodings and the charsets
 * TextDecoder knows.
 *
 * Threading: a message whose References (its first, the thread root) or In-Reply-To names an
 * earlier message is a reply. Every draft's deduplication_key is its thread root's Message-ID
 * (its own for a first message), so a reply updates the thread's first alert. With
 * `accept_threaded_emails: false` (reference: "set this to false to reject threaded emails")
 * replies are rejected and the first message opens the alert alone.
 */
export interface ParsedEmail {
  from: string | null;
  to: string | null;
  subject: string;
  date: string | null;
  message_id: string | null;
  in_reply_to: string | null;
  references: string[];
  text: string;
}

export interface EmailSourceConfig {
  sourceable_attributes?: { accept_threaded_emails?: boolean } | null;
}

export type EmailMapping =
  | { accepted: true; draft: AlertDraft; threaded: boolean }
  | { accepted: false; reason: 'threaded_email_rejected' };

export const DEFAULT_EMAIL_SUMMARY = '(no subject)';
const MAX_MIME_DEPTH = 8;

type Headers = Map<string, string[]>;

// ---- bytes and charsets -------------------------------------------------------------------

/** Raw messages are handled as "binary strings" (one char per byte, latin1) until decoded. */
function toBinary(raw: string | Buffer): string {
  return (typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw).toString('latin1');
}

function decodeCharset(bytes: Buffer, charset: string | undefined): string {
  const label = (charset ?? 'utf-8').trim().toLowerCase();
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function decodeQuotedPrintable(bin: string): Buffer {
  const joined = bin.replace(/[ \t]*=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const c = joined[i];
    const hex = joined.slice(i + 1, i + 3);
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(joined.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

function decodeTransfer(bin: string, encoding: string | undefined): Buffer {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'base64':
      return Buffer.from(bin.replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
    case 'quoted-printable':
      return decodeQuotedPrintable(bin);
    default:
      return Buffer.from(bin, 'latin1');
  }
}

/** RFC 2047 encoded words (`=?utf-8?B?...?=`, `=?iso-8859-1?Q?...?=`) in a header value. */
export function decodeEncodedWords(value: string): string {
  const word = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;
  return value.replace(/(\?=)\s+(=\?)/g, '$1$2').replace(word, (_all, charset: string, enc: string, text: string) => {
    const bytes =
      enc.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : decodeQuotedPrintable(text.replace(/_/g, ' '));
    return decodeCharset(bytes, charset.split('*')[0]);
  });
}

// ---- headers and MIME structure ------------------------------------------------------------

function splitHeaderBody(bin: string): { head: string; body: string } {
  const match = /\r?\n\r?\n/.exec(bin);
  if (!match) return { head: bin, body: '' };
  return { head: bin.slice(0, match.index), body: bin.slice(match.index + match[0].length) };
}

function parseHeaders(head: string): Headers {
  const headers: Headers = new Map();
  const unfolded: string[] = [];
  for (const line of head.split(/\r?\n/)) {
    if (/^[ \t]/.test(line) && unfolded.length > 0) unfolded[unfolded.length - 1] += line;
    else unfolded.push(line);
  }
  for (const line of unfolded) {
    const match = /^([!-9;-~]+):[ \t]*(.*)$/.exec(line);
    if (!match) continue;
    const name = match[1].toLowerCase();
    // Headers are ASCII by the RFCs, but many mailers send raw UTF-8: read the bytes as UTF-8.
    const value = Buffer.from(match[2], 'latin1').toString('utf8').trim();
    headers.set(name, [...(headers.get(name) ?? []), value]);
  }
  return headers;
}

function header(headers: Headers, name: string): string | undefined {
  return headers.get(name)?.[0];
}

interface ContentType {
  type: string;
  params: Record<string, string>;
}

function parseContentType(value: string | undefined): ContentType {
  if (!value) return { type: 'text/plain', params: {} };
  const [type, ...rest] = value.split(';');
  const params: Record<string, string> = {};
  const param = /^\s*([^=\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s]*))/;
  for (const piece of rest.join(';').split(/;(?=(?:[^"]*"[^"]*")*[^"]*$)/)) {
    const match = param.exec(piece);
    if (match) params[match[1].toLowerCase()] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3];
  }
  return { type: type.trim().toLowerCase() || 'text/plain', params };
}

function splitMultipart(body: string, boundary: string): string[] {
  const parts: string[] = [];
  let current: string[] | null = null;
  for (const line of body.split(/\r?\n/)) {
    const trimmed = line.trimEnd();
    if (trimmed === `--${boundary}--`) break;
    if (trimmed === `--${boundary}`) {
      if (current) parts.push(current.join('\r\n'));
      current = [];
    } else if (current) {
      current.push(line);
    }
  }
  if (current) parts.push(current.join('\r\n'));
  return parts;
}

function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|tr|li|h[1-6])>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n');
}

interface Bodies {
  plain: string | null;
  html: string | null;
}

function collectBodies(headers: Headers, body: string, depth: number, into: Bodies): void {
  const contentType = parseContentType(header(headers, 'content-type'));
  const disposition = (header(headers, 'content-disposition') ?? '').toLowerCase();
  if (disposition.startsWith('attachment')) return;
  if (contentType.type.startsWith('multipart/')) {
    const boundary = contentType.params.boundary;
    if (!boundary || depth >= MAX_MIME_DEPTH) return;
    for (const part of splitMultipart(body, boundary)) {
      const { head, body: partBody } = splitHeaderBody(part);
      collectBodies(parseHeaders(head), partBody, depth + 1, into);
      if (into.plain !== null) return;
    }
    return;
  }
  if (contentType.type !== 'text/plain' && contentType.type !== 'text/html') return;
  const text = decodeCharset(decodeTransfer(body, header(headers, 'content-transfer-encoding')), contentType.params.charset);
  if (contentType.type === 'text/plain' && into.plain === null) into.plain = text;
  if (contentType.type === 'text/html' && into.html === null) into.html = text;
}

// ---- parsing ---------------------------------------------------------------------------------

function messageIds(value: string | undefined): string[] {
  if (!value) return [];
  const bracketed = [...value.matchAll(/<([^<>\s]+)>/g)].map((m) => m[1]);
  return bracketed.length > 0 ? bracketed : value.split(/[\s,]+/).filter(Boolean);
}

function normaliseText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[ \t]+$/gm, '').trim();
}

export function parseRawEmail(raw: string | Buffer): ParsedEmail {
  const bin = toBinary(raw);
  const { head, body } = splitHeaderBody(bin.replace(/^\s+/, ''));
  const headers = parseHeaders(head);
  if (headers.size === 0 || !(headers.has('from') || headers.has('subject') || headers.has('message-id'))) {
    throw new IngestionError('body', 'not an RFC 822 message: no From, Subject or Message-ID header');
  }
  const bodies: Bodies = { plain: null, html: null };
  collectBodies(headers, body, 0, bodies);
  const text = bodies.plain ?? (bodies.html !== null ? htmlToText(bodies.html) : '');
  const decoded = (name: string): string | null => {
    const value = header(headers, name);
    return value === undefined ? null : decodeEncodedWords(value);
  };
  return {
    from: decoded('from'),
    to: decoded('to'),
    subject: decoded('subject') ?? '',
    date: header(headers, 'date') ?? null,
    message_id: messageIds(header(headers, 'message-id'))[0] ?? null,
    in_reply_to: messageIds(header(headers, 'in-reply-to'))[0] ?? null,
    references: messageIds((headers.get('references') ?? []).join(' ')),
    text: normaliseText(text),
  };
}

function optionalString(body: Record<string, unknown>, key: string): string | null {
  const value = body[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new IngestionError(key, 'expected a string');
  return value;
}

/** The parsed JSON form: `{ from, to?, subject, text?, html?, message_id?, in_reply_to?, references? }`. */
export function parseJsonEmail(body: unknown): ParsedEmail {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new IngestionError('body', 'expected an email JSON object');
  }
  const b = body as Record<string, unknown>;
  const subject = optionalString(b, 'subject');
  const text = optionalString(b, 'text');
  const html = optionalString(b, 'html');
  if (subject === null && text === null && html === null) {
    throw new IngestionError('body', 'an email needs a subject, text or html');
  }
  const refs = b.references;
  let references: string[];
  if (refs === undefined || refs === null) references = [];
  else if (typeof refs === 'string') references = messageIds(refs);
  else if (Array.isArray(refs) && refs.every((r) => typeof r === 'string')) references = refs.flatMap((r) => messageIds(r));
  else throw new IngestionError('references', 'expected a string or an array of strings');
  const id = (key: string): string | null => {
    const value = optionalString(b, key);
    return value === null ? null : (messageIds(value)[0] ?? null);
  };
  return {
    from: optionalString(b, 'from'),
    to: optionalString(b, 'to'),
    subject: subject ?? '',
    date: optionalString(b, 'date'),
    message_id: id('message_id'),
    in_reply_to: id('in_reply_to'),
    references,
    text: normaliseText(text ?? (html !== null ? htmlToText(html) : '')),
  };
}

// ---- mapping ---------------------------------------------------------------------------------

function stripReplyPrefixes(subject: string): string {
  return subject.replace(/^(\s*(re|fwd?|aw|sv|tr)(\[\d+\])?\s*:\s*)+/i, '');
}

/** Maps a raw message (string or bytes) or the parsed JSON form to a draft, or a rejection. */
export function mapEmail(config: EmailSourceConfig, input: string | Buffer | Record<string, unknown>): EmailMapping {
  const email = typeof input === 'string' || Buffer.isBuffer(input) ? parseRawEmail(input) : parseJsonEmail(input);
  const root = email.references[0] ?? email.in_reply_to;
  const threaded = root !== null && root !== undefined && root !== email.message_id;
  if (threaded && config.sourceable_attributes?.accept_threaded_emails === false) {
    return { accepted: false, reason: 'threaded_email_rejected' };
  }
  const subject = (threaded ? stripReplyPrefixes(email.subject) : email.subject).trim();
  const firstLine = email.text.split('\n').find((line) => line.trim() !== '');
  const draft = emptyDraft(subject || firstLine || DEFAULT_EMAIL_SUMMARY, { ...email });
  draft.description = email.text === '' ? null : email.text;
  draft.external_id = email.message_id;
  draft.deduplication_key = threaded ? root : email.message_id;
  if (email.from) draft.labels = [{ key: 'from', value: email.from }];
  draft.started_at = email.date === null || Number.isNaN(Date.parse(email.date)) ? null : new Date(email.date).toISOString();
  return { accepted: true, draft, threaded };
}
