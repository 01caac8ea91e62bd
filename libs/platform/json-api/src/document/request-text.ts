import { JsonApiError } from '../errors/json-api-error';

/**
 * Text a request may carry: PostgreSQL refuses the NUL character in text, and an unpaired UTF-16
 * surrogate (or invalid UTF-8 byte) would be stored silently as U+FFFD. Both are refused with a
 * 400 naming where they are, before anything is written.
 */

/** Deeper bodies are refused: no resource of the API nests anywhere near this. */
export const MAX_BODY_DEPTH = 64;

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// `ignoreBOM` keeps a byte order mark in the text: inbound signatures are HMACs of the exact bytes.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientUtf8 = new TextDecoder('utf-8');

function textProblem(text: string): string | null {
  if (text.includes('\u0000')) return 'contains a NUL character (U+0000)';
  if (UNPAIRED_SURROGATE.test(text)) return 'contains an unpaired UTF-16 surrogate';
  return null;
}

function invalidText(detail: string, source?: { pointer?: string; parameter?: string }): JsonApiError {
  return JsonApiError.of(400, 'Invalid characters', detail, 'INVALID_CHARACTERS', source);
}

const escapePointer = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The JSON pointer and problem of the first unstorable string (key or value) in `value`, or null. */
function findProblem(value: unknown, problemOf: (text: string) => string | null): { pointer: string; problem: string } | null {
  // Iterative, so a deep body cannot exhaust the stack.
  const stack: { value: unknown; pointer: string; depth: number }[] = [{ value, pointer: '', depth: 0 }];
  while (stack.length) {
    const item = stack.pop()!;
    if (typeof item.value === 'string') {
      const problem = problemOf(item.value);
      if (problem) return { pointer: item.pointer, problem };
    } else if (item.value !== null && typeof item.value === 'object') {
      if (item.depth >= MAX_BODY_DEPTH) return { pointer: item.pointer, problem: `is nested deeper than ${MAX_BODY_DEPTH} levels` };
      const entries = Array.isArray(item.value) ? item.value.map((v, i) => [String(i), v] as const) : Object.entries(item.value);
      for (const [key, child] of entries.reverse()) {
        const problem = problemOf(key);
        // The member's own pointer would carry the bad name: its parent is named instead.
        if (problem) return { pointer: item.pointer, problem: `has a member name that ${problem}` };
        stack.push({ value: child, pointer: `${item.pointer}/${escapePointer(key)}`, depth: item.depth + 1 });
      }
    }
  }
  return null;
}

const describePointer = (pointer: string) => (pointer ? pointer.slice(1) : 'The body');

/** Throws a 400 naming the member when a parsed JSON body holds text that cannot be stored. */
export function assertStorableBody(body: unknown): void {
  const found = findProblem(body, textProblem);
  if (found) throw invalidText(`${describePointer(found.pointer)} ${found.problem}`, found.pointer ? { pointer: found.pointer } : undefined);
}

/**
 * A JSON body's bytes as text. Invalid UTF-8 is a 400 naming the member it falls in (found by a
 * lenient decoding, where it shows as U+FFFD), or the body when it does not parse.
 */
export function decodeUtf8Body(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    let pointer = '';
    try {
      pointer = findProblem(JSON.parse(lenientUtf8.decode(bytes)), (text) => (text.includes('\uFFFD') ? 'is not valid UTF-8' : null))?.pointer ?? '';
    } catch {
      // Not JSON either: the whole body is named.
    }
    throw invalidText(`${describePointer(pointer)} is not valid UTF-8`, pointer ? { pointer } : undefined);
  }
}

/**
 * Refuses a request target whose path or query parameters decode to unstorable text (or do not
 * decode: a percent-escape of invalid UTF-8). A query parameter is named; the path is described.
 */
export function assertStorableTarget(url: string): void {
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  for (const segment of path.split('/')) {
    const problem = decodedProblem(segment);
    if (problem) throw invalidText(`The request path ${problem}`);
  }
  if (mark === -1) return;
  for (const pair of url.slice(mark + 1).split('&')) {
    const [rawName, rawValue = ''] = pair.split('=', 2);
    const problem = decodedProblem(rawName) ?? decodedProblem(rawValue);
    if (!problem) continue;
    const decodedName = safeDecode(rawName);
    const parameter = decodedName !== null && !textProblem(decodedName) ? decodedName : rawName;
    throw invalidText(`Query parameter ${parameter} ${problem}`, { parameter });
  }
}

function safeDecode(component: string): string | null {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

function decodedProblem(component: string): string | null {
  if (!component.includes('%')) return null;
  const decoded = safeDecode(component);
  return decoded === null ? 'is not valid percent-encoded UTF-8' : textProblem(decoded);
}
