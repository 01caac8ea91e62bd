import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { isTimeZone } from './clock';

describe('isTimeZone', () => {
  test('knows IANA names, in any case, and refuses the rest', () => {
    for (const name of ['Europe/Paris', 'Etc/UTC', 'UTC', 'america/new_york']) assert.equal(isTimeZone(name), true, name);
    for (const name of ['', 'Mars/Olympus', 'Europe/Paris ', 'GMT+25']) assert.equal(isTimeZone(name), false, name);
  });
});
