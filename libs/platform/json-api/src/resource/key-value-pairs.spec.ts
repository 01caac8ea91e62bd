import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { JsonApiError } from '../errors/json-api-error';
import { checkKeyValuePairs } from './key-value-pairs';

/** The errors' pointers and details a check answered, or [] when it passed. */
function refusals(check: () => void): string[] {
  try {
    check();
    return [];
  } catch (error) {
    assert.ok(error instanceof JsonApiError);
    return error.errors.map((e) => `${e.source?.pointer} ${e.detail}`);
  }
}

describe('checkKeyValuePairs', () => {
  test('string pairs pass; absent, null and empty lists pass; other attributes are not looked at', () => {
    assert.deepEqual(refusals(() => checkKeyValuePairs({ labels: [{ key: 'version', value: 'v2' }], refs: null, summary: { key: 1 } }, ['labels', 'refs', 'tags'])), []);
    assert.deepEqual(refusals(() => checkKeyValuePairs({ labels: [] }, ['labels'])), []);
  });

  test('each problem is one error at the member: a key that is no string, a value of another type, another member', () => {
    const labels = [{ key: 'ok', value: 'v' }, { key: 'port', value: 5432 }, { value: 'no key' }, { key: 'k', value: 'v', tag: 'x' }];
    assert.deepEqual(refusals(() => checkKeyValuePairs({ labels, refs: [{ key: 'sha' }] }, ['labels', 'refs'])), [
      '/data/attributes/labels/1/value labels[1].value must be a string',
      '/data/attributes/labels/2/key labels[2].key must be a string',
      '/data/attributes/labels/3/tag labels[3] takes key and value only, not tag',
      '/data/attributes/refs/0/value refs[0].value must be a string',
    ]);
  });

  test('the value types a list takes are named (alerts take strings, numbers and booleans)', () => {
    const wide = ['string', 'number', 'boolean'] as const;
    assert.deepEqual(refusals(() => checkKeyValuePairs({ labels: [{ key: 'port', value: 5432 }, { key: 'up', value: true }] }, ['labels'], wide)), []);
    assert.deepEqual(refusals(() => checkKeyValuePairs({ labels: [{ key: 'k', value: null }] }, ['labels'], wide)), ['/data/attributes/labels/0/value labels[0].value must be a string, a number or a boolean']);
  });
});
