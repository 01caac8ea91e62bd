import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { generateApiKeyToken, hashToken, PREFIX_LENGTH, sameHash, tokenPrefix } from './api-key-token';

describe('API key tokens', () => {
  test('generated tokens are long, random and prefixed', () => {
    const a = generateApiKeyToken();
    const b = generateApiKeyToken();
    assert.match(a, /^tpr_[A-Za-z0-9]{40}$/);
    assert.notEqual(a, b);
  });

  test('the lookup prefix is a fixed-length head of the token, not the secret', () => {
    const t = generateApiKeyToken();
    assert.equal(tokenPrefix(t).length, PREFIX_LENGTH);
    assert.ok(t.startsWith(tokenPrefix(t)));
    assert.ok(t.length - PREFIX_LENGTH >= 32);
  });

  test('only a hash is kept, and hashes compare equal only for the same token', () => {
    const t = generateApiKeyToken();
    assert.equal(hashToken(t).length, 64);
    assert.ok(!hashToken(t).includes(t));
    assert.ok(sameHash(hashToken(t), hashToken(t)));
    assert.ok(!sameHash(hashToken(t), hashToken(`${t}x`)));
  });
});
