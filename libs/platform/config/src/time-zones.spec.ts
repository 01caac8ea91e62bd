import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { IANAZone } from 'luxon';
import { ianaZoneOf, isTimeZone } from './time-zones';

describe('isTimeZone', () => {
  test('knows IANA names, in any case, and refuses the rest', () => {
    for (const name of ['Europe/Paris', 'Etc/UTC', 'UTC', 'america/new_york']) assert.equal(isTimeZone(name), true, name);
    for (const name of ['', 'Mars/Olympus', 'Europe/Paris ', 'GMT+25', 'Eastern Time (US & Canada)']) assert.equal(isTimeZone(name), false, name);
  });
});

describe('ianaZoneOf', () => {
  test('an IANA name the runtime knows is its own zone', () => {
    for (const name of ['Europe/Paris', 'Etc/GMT+12', 'UTC', 'Asia/Kolkata']) assert.equal(ianaZoneOf(name), name);
  });

  test("a Rails zone name is the IANA zone it denotes, one Luxon knows", () => {
    const expected: Record<string, string> = {
      'International Date Line West': 'Etc/GMT+12',
      'Eastern Time (US & Canada)': 'America/New_York',
      'Pacific Time (US & Canada)': 'America/Los_Angeles',
      'Mid-Atlantic': 'Atlantic/South_Georgia',
      London: 'Europe/London',
      Edinburgh: 'Europe/London',
      'New Delhi': 'Asia/Kolkata',
      "Nuku'alofa": 'Pacific/Tongatapu',
      'Chatham Is.': 'Pacific/Chatham',
    };
    for (const [rails, iana] of Object.entries(expected)) {
      assert.equal(ianaZoneOf(rails), iana, rails);
      assert.ok(IANAZone.isValidZone(ianaZoneOf(rails)!), rails);
    }
  });

  test('anything else is no zone, including names an object has of its own', () => {
    for (const name of ['', 'Mars/Olympus', 'eastern time (us & canada)', 'Eastern Time', 'constructor', '__proto__', 'toString', 'hasOwnProperty']) assert.equal(ianaZoneOf(name), null, name);
  });
});
