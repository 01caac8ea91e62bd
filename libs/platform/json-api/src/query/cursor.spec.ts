import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { JsonApiError } from '../errors/json-api-error';
import { decodeCursor, encodeCursor, fingerprintOf, MAX_CURSOR_LENGTH, type CursorValue } from './cursor';

const secret = 'cursor-secret';
const fingerprint = fingerprintOf(['widgets', ['name', 'created_at', 'id']]);
const decode = (token: string, over: Partial<{ secret: string; fingerprint: string }> = {}) =>
  decodeCursor(token, { secret, fingerprint, parameter: 'page[after]', ...over });

/** A token signed the way `encodeCursor` signs, around an arbitrary payload. */
function forge(payload: string, key = secret): string {
  const body = Buffer.from(payload, 'utf8');
  const mac = createHmac('sha256', key).update('taproot.cursor.v1\n').update(body).digest().subarray(0, 16);
  return Buffer.concat([mac, body]).toString('base64url');
}

function rejectsWith(fn: () => unknown, detail: RegExp, parameter = 'page[after]'): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof JsonApiError);
    assert.equal(error.status, 400);
    assert.deepEqual(error.errors[0].source, { parameter });
    assert.match(error.errors[0].detail ?? '', detail);
    return true;
  });
}

describe('encodeCursor / decodeCursor', () => {
  test('values round-trip exactly', () => {
    const values: CursorValue[] = [
      'Zoë, "quoted" \\ ünïcode 🚀',
      '2024-05-01T12:00:00.123456Z',
      0.1 + 0.2,
      -0.5,
      9007199254740991,
      '9007199254740993',
      true,
      false,
      null,
      '',
      '0e3b0b8a-4c1f-4b7a-9c63-6f0a1d2e3f40',
    ];
    const token = encodeCursor(fingerprint, values, secret);
    assert.match(token, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decode(token), values);
  });

  test('the same input gives the same token', () => {
    assert.equal(encodeCursor(fingerprint, ['a', 1], secret), encodeCursor(fingerprint, ['a', 1], secret));
    assert.notEqual(encodeCursor(fingerprint, ['a', 1], secret), encodeCursor(fingerprint, ['a', 2], secret));
  });

  test('a cursor signed with another secret -> Invalid cursor', () => {
    rejectsWith(() => decode(encodeCursor(fingerprint, ['a'], 'other'), {}), /^Invalid cursor$/);
  });

  test('any flipped character -> Invalid cursor', () => {
    const token = encodeCursor(fingerprint, ['abc', 42], secret);
    for (let i = 0; i < token.length; i++) {
      const c = token[i] === 'A' ? 'B' : 'A';
      const tampered = token.slice(0, i) + c + token.slice(i + 1);
      rejectsWith(() => decode(tampered), /^Invalid cursor$/);
    }
  });

  test('truncated, extended, padded, non-base64url, empty or oversized tokens -> Invalid cursor', () => {
    const token = encodeCursor(fingerprint, ['abc'], secret);
    for (const bad of [
      token.slice(0, -1),
      token.slice(0, 10),
      `${token}A`,
      `${token}=`,
      token.replace(/[-_]/g, '+') === token ? `${token}+` : token.replace(/[-_]/g, '+'),
      'abc def',
      'AAAA',
      '',
      'A'.repeat(MAX_CURSOR_LENGTH + 1),
      Buffer.from('["fp",["a"]]').toString('base64url'),
    ]) {
      rejectsWith(() => decode(bad), /^Invalid cursor$/);
    }
  });

  test('a correctly signed payload of the wrong shape -> Invalid cursor', () => {
    for (const payload of ['not json', '{"f":"x","v":[]}', '["fp"]', '[1,[]]', '["fp",{}]', '["fp",[{}]]', '["fp",[[1]]]', '["fp",[1],2]']) {
      rejectsWith(() => decode(forge(payload)), /^Invalid cursor$/);
    }
    // Sanity: a forged well-formed payload with the right fingerprint decodes.
    assert.deepEqual(decode(forge(JSON.stringify([fingerprint, ['x', 1]]))), ['x', 1]);
  });

  test('a genuine cursor of another query -> stale cursor, naming the parameter', () => {
    const token = encodeCursor(fingerprintOf(['widgets', ['-name']]), ['a'], secret);
    rejectsWith(
      () => decodeCursor(token, { secret, fingerprint, parameter: 'page[before]' }),
      /^Stale cursor: .*different sort, filter or search/,
      'page[before]',
    );
  });

  test('a missing secret is a configuration error', () => {
    assert.throws(() => encodeCursor(fingerprint, [], ''), /non-empty cursorSecret/);
    assert.throws(() => decode('AAAA', { secret: '' }), /non-empty cursorSecret/);
  });

  test('only JSON scalars can be encoded', () => {
    assert.throws(() => encodeCursor(fingerprint, [Number.NaN], secret), /finite numbers/);
    assert.throws(() => encodeCursor(fingerprint, [{} as never], secret), /cursor values/);
  });
});

describe('fingerprintOf', () => {
  test('is deterministic and short', () => {
    assert.equal(fingerprintOf(['a', [1]]), fingerprintOf(['a', [1]]));
    assert.notEqual(fingerprintOf(['a', [1]]), fingerprintOf(['a', [2]]));
    assert.match(fingerprintOf('x'), /^[A-Za-z0-9_-]{16}$/);
  });
});
