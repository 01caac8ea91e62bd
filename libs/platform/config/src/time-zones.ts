import { from as railsZoneName } from 'rails-timezone';

/** Whether the runtime's time zone database knows `name` (IANA names such as `Europe/Paris`, `Etc/UTC`). */
export function isTimeZone(name: string): boolean {
  if (name === '') return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** What a time zone attribute or parameter takes (`ianaZoneOf`), for its descriptions and refusals. */
export const TIME_ZONE_NAMES = 'an IANA time zone name such as Europe/Paris or a Rails time zone name such as Eastern Time (US & Canada)';

/**
 * The IANA zone a time zone name denotes, to compute with: an IANA name the runtime knows, as is,
 * or a Rails (ActiveSupport) zone name such as `Eastern Time (US & Canada)`, which the reference's
 * enums list beside the IANA ones and the hosted API's Terraform provider sends (rails-timezone
 * maps them); null for anything else. Clients are answered the name they sent, never this one.
 */
export function ianaZoneOf(name: string): string | null {
  if (isTimeZone(name)) return name;
  // The package looks names up in a plain object: a name such as `constructor` finds no string.
  const mapped: unknown = railsZoneName(name);
  return typeof mapped === 'string' && isTimeZone(mapped) ? mapped : null;
}
