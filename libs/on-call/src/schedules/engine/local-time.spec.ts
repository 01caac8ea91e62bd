import { expect, test } from '@jest/globals';
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { MINUTE, offsetAt, zoneOf } from './local-time';

const ZONES = ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kolkata', 'Pacific/Chatham', 'America/Sao_Paulo', 'Africa/Casablanca', 'Etc/UTC'];

test("offsetAt answers Intl's offset (through Luxon) at any instant, transitions to the millisecond", () => {
  fc.assert(
    fc.property(fc.constantFrom(...ZONES), fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2100, 0, 1) }), (name, instant) => {
      const zone = zoneOf(name);
      expect([name, instant, offsetAt(zone, instant)]).toEqual([name, instant, zone.offset(instant) * MINUTE]);
    }),
    { numRuns: 3000, seed: 20251125 },
  );
  // Around New York's and Lord Howe's 2025 changes, one millisecond either side.
  for (const [name, local] of [['America/New_York', '2025-03-09T02:00'], ['America/New_York', '2025-11-02T01:00'], ['Australia/Lord_Howe', '2025-10-05T02:00'], ['Australia/Lord_Howe', '2025-04-06T02:00']] as const) {
    const zone = zoneOf(name);
    const at = DateTime.fromISO(local, { zone: name }).toMillis();
    for (const instant of [at - 3_600_000, at - 1, at, at + 1, at + 3_600_000]) expect([name, instant, offsetAt(zone, instant)]).toEqual([name, instant, zone.offset(instant) * MINUTE]);
  }
});
