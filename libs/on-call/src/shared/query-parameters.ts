import { ianaZoneOf, TIME_ZONE_NAMES } from '@taproot/config';
import { JsonApiError, type FlatQuery } from '@taproot/json-api';

/** An ISO 8601 date or date-time query parameter (a date alone is midnight UTC); absent, undefined; else a 400 naming it. */
export function instantParameter(name: string, raw: FlatQuery[string]): Date | undefined {
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw[0] : raw;
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime())) {
    throw JsonApiError.badParameter(name, `${name} must be an ISO 8601 date or date-time, got '${value}'`);
  }
  return at;
}

/** A comma-separated list parameter under any of `names` (`ids[]` and `ids`), repeats merged; absent, undefined. */
export function listParameter(query: FlatQuery, ...names: string[]): string[] | undefined {
  const raw = names.flatMap((name) => query[name] ?? []);
  return raw.length ? raw.flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean) : undefined;
}

/** A time zone query parameter (an IANA or a Rails name) as the IANA zone it denotes; else a 400 naming it. */
export function timeZoneParameter(name: string, raw: FlatQuery[string]): string | undefined {
  if (raw === undefined) return undefined;
  const value = String(Array.isArray(raw) ? raw[0] : raw);
  const zone = ianaZoneOf(value);
  if (zone === null) throw JsonApiError.badParameter(name, `${name} must be ${TIME_ZONE_NAMES}, got '${value}'`);
  return zone;
}
