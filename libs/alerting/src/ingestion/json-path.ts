/**
 * The JSON Path subset alert sources use to pick values out of a payload: a root `$`
 * followed by member and index steps, e.g. `$.alert.title`, `$.alerts[0].labels.severity`,
 * `$['annotations']["runbook url"]`, `$.items[-1]` (negative indexes count from the end).
 * Filters, wildcards, slices and recursive descent are refused with a JsonPathError rather
 * than silently matching nothing: a source mapping picks exactly one value.
 */
export type JsonPathStep = string | number;

export class JsonPathError extends Error {
  constructor(
    readonly path: string,
    readonly position: number,
    reason: string,
  ) {
    super(`invalid JSON Path ${JSON.stringify(path)} at ${position}: ${reason}`);
    this.name = 'JsonPathError';
  }
}

const MAX_PATH_LENGTH = 1024;
const NAME = /^[A-Za-z_$][\w$-]*/;

function readQuoted(path: string, start: number): { value: string; end: number } {
  const quote = path[start];
  let value = '';
  for (let i = start + 1; i < path.length; i++) {
    const c = path[i];
    if (c === '\\') {
      const next = path[i + 1];
      if (next === undefined) break;
      value += next;
      i++;
    } else if (c === quote) {
      return { value, end: i + 1 };
    } else {
      value += c;
    }
  }
  throw new JsonPathError(path, start, 'unterminated string');
}

/** Parses a path into its steps; throws JsonPathError for anything outside the subset. */
export function parseJsonPath(path: string): JsonPathStep[] {
  if (typeof path !== 'string') throw new JsonPathError(String(path), 0, 'not a string');
  const text = path.trim();
  if (text.length > MAX_PATH_LENGTH) throw new JsonPathError(text, 0, `longer than ${MAX_PATH_LENGTH}`);
  if (text[0] !== '$') throw new JsonPathError(text, 0, "must start with '$'");
  const steps: JsonPathStep[] = [];
  let i = 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '.') {
      if (text[i + 1] === '.') throw new JsonPathError(text, i, 'recursive descent (..) is not supported');
      const match = NAME.exec(text.slice(i + 1));
      if (!match) {
        const reason = text[i + 1] === '*' ? 'wildcards are not supported' : 'expected a member name';
        throw new JsonPathError(text, i + 1, reason);
      }
      steps.push(match[0]);
      i += 1 + match[0].length;
    } else if (c === '[') {
      const inner = text[i + 1];
      if (inner === "'" || inner === '"') {
        const { value, end } = readQuoted(text, i + 1);
        if (text[end] !== ']') throw new JsonPathError(text, end, "expected ']'");
        steps.push(value);
        i = end + 1;
      } else {
        const match = /^(-?\d+)\]/.exec(text.slice(i + 1));
        if (!match) {
          throw new JsonPathError(text, i + 1, 'expected an integer index or a quoted member name');
        }
        steps.push(Number(match[1]));
        i += 1 + match[0].length;
      }
    } else {
      throw new JsonPathError(text, i, `unexpected ${JSON.stringify(c)}`);
    }
  }
  return steps;
}

/** Parsed paths: a source's mappings and routes name the same few paths for every alert. */
const parsed = new Map<string, readonly JsonPathStep[]>();

function stepsOf(path: string): readonly JsonPathStep[] {
  let steps = parsed.get(path);
  if (!steps) {
    steps = parseJsonPath(path);
    // Bounded: paths come from configuration, but a client could send many different ones.
    if (parsed.size >= 10_000) parsed.clear();
    parsed.set(path, steps);
  }
  return steps;
}

/** The value at `path` in `payload`, or undefined when a step finds nothing. */
export function evaluateJsonPath(payload: unknown, path: string | readonly JsonPathStep[]): unknown {
  const steps = typeof path === 'string' ? stepsOf(path) : path;
  let current: unknown = payload;
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[step < 0 ? current.length + step : step];
    } else {
      if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
      if (!Object.prototype.hasOwnProperty.call(current, step)) return undefined;
      current = (current as Record<string, unknown>)[step];
    }
  }
  return current;
}
