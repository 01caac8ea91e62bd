import { test } from '@jest/globals';
import assert from 'node:assert/strict';
import { JsonApiError } from '@taproot/json-api';
import { parseIdempotencyKey, requestBodyHash } from './idempotency-key';

test('a key is 1 to 255 printable ASCII characters; anything else is a 400 naming the header', () => {
  for (const key of ['a', 'order 42/retry', '~'.repeat(255)]) assert.equal(parseIdempotencyKey(key), key);
  for (const key of ['', 'x'.repeat(256), 'caf\u00e9', 'new\nline', ['a', 'b']]) {
    assert.throws(
      () => parseIdempotencyKey(key),
      (error: unknown) => error instanceof JsonApiError && error.status === 400 && error.errors[0].source?.header === 'Idempotency-Key',
      JSON.stringify(key),
    );
  }
});

test('the body hash ignores member order but not values, and hashes raw bytes as sent', () => {
  const a = requestBodyHash({ data: { type: 'services', attributes: { name: 'A', tags: [1, 2] } } });
  assert.equal(requestBodyHash({ data: { attributes: { tags: [1, 2], name: 'A' }, type: 'services' } }), a);
  assert.notEqual(requestBodyHash({ data: { type: 'services', attributes: { name: 'A', tags: [2, 1] } } }), a);
  assert.notEqual(requestBodyHash({ data: { type: 'services', attributes: { name: 'A', tags: [1, 2], x: null } } }), a);
  assert.equal(requestBodyHash(Buffer.from('{"b":1,"a":2}')), requestBodyHash(Buffer.from('{"b":1,"a":2}')));
  assert.notEqual(requestBodyHash(Buffer.from('{"b":1,"a":2}')), requestBodyHash(Buffer.from('{"a":2,"b":1}')));
  assert.notEqual(requestBodyHash(undefined), requestBodyHash({}));
});
