import { instantOf } from './local-time';
import type { OverrideInput } from './types';

export interface OverridePart {
  start: number;
  end: number;
  override: OverrideInput;
}

/**
 * The overrides as disjoint parts in time order. Where overrides overlap, the one that starts
 * last (then the greater id) holds the time; one it lies inside resumes after it.
 */
export function overrideParts(overrides: readonly OverrideInput[]): OverridePart[] {
  const sorted = overrides
    .map((override) => ({ start: instantOf(override.starts_at), end: instantOf(override.ends_at), override }))
    .filter((o) => o.start < o.end)
    .sort((a, b) => a.start - b.start || (a.override.id < b.override.id ? -1 : a.override.id > b.override.id ? 1 : 0));
  const points = [...new Set(sorted.flatMap((o) => [o.start, o.end]))].sort((a, b) => a - b);
  const parts: OverridePart[] = [];
  let active: typeof sorted = [];
  let next = 0;
  for (let k = 0; k + 1 < points.length; k++) {
    const [at, until] = [points[k], points[k + 1]];
    while (next < sorted.length && sorted[next].start <= at) active.push(sorted[next++]);
    active = active.filter((o) => o.end > at);
    const winner = active.at(-1)?.override;
    if (!winner) continue;
    const last = parts.at(-1);
    if (last && last.override === winner && last.end === at) last.end = until;
    else parts.push({ start: at, end: until, override: winner });
  }
  return parts;
}

/** [start, end) minus the override parts, which are disjoint and sorted. */
export function outsideOverrides(start: number, end: number, parts: readonly OverridePart[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let at = start;
  // Binary search: the first part ending after `start`.
  let lo = 0;
  let hi = parts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (parts[mid].end <= start) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < parts.length && parts[i].start < end; i++) {
    if (parts[i].start > at) out.push([at, parts[i].start]);
    at = Math.max(at, parts[i].end);
  }
  if (at < end) out.push([at, end]);
  return out;
}
