import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { slugify } from './slug';

describe('slugify', () => {
  test('matches the reference slug pattern', () => {
    for (const name of ['Checkout API', 'Ünïcödé Sérvice', '  --weird__name!!  ', '日本語', 'a'.repeat(200)]) {
      assert.match(slugify(name), /^[a-z0-9_-]+$/, name);
    }
  });
  test('lower-cases and joins words with dashes', () => {
    assert.equal(slugify('Checkout API'), 'checkout-api');
    assert.equal(slugify('Ünïcödé Sérvice'), 'unicode-service');
  });
  test('never returns an empty slug', () => {
    assert.equal(slugify('日本語'), 'item');
  });
});
