import { describe, expect, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { signBody, verifySignature } from './signature';

/** This test's folder (Jest runs it as an ES module, without `__dirname`). */
const here = dirname(expect.getState().testPath!);

const secret = 'whsec_4f1c2d9e8b7a6f5e4d3c2b1a';
const body = readFileSync(join(here, 'fixtures', 'grafana-webhook.json'));

describe('X-Taproot-Signature', () => {
  test('a signature computed independently over the raw body is ok', () => {
    const hex = createHmac('sha256', secret).update(body).digest('hex');
    assert.equal(signBody(body, secret), `sha256=${hex}`);
    assert.equal(verifySignature(body, secret, `sha256=${hex}`), 'ok');
    assert.equal(verifySignature(body, secret, `SHA256=${hex.toUpperCase()}`), 'ok');
    assert.equal(verifySignature(body.toString('utf8'), secret, [signBody(body, secret)]), 'ok');
  });

  test('no header, or an empty one, is missing', () => {
    assert.equal(verifySignature(body, secret, undefined), 'missing');
    assert.equal(verifySignature(body, secret, []), 'missing');
    assert.equal(verifySignature(body, secret, '  '), 'missing');
  });

  test('a wrong secret, a changed body or a re-serialised body is invalid', () => {
    assert.equal(verifySignature(body, secret, signBody(body, 'other-secret')), 'invalid');
    const changed = Buffer.from(body.toString('utf8').replace('firing', 'resolved'));
    assert.equal(verifySignature(changed, secret, signBody(body, secret)), 'invalid');
    const reserialised = JSON.stringify(JSON.parse(body.toString('utf8')));
    assert.equal(verifySignature(reserialised, secret, signBody(body, secret)), 'invalid');
  });

  test('a malformed value, a wrong length, another scheme or two headers are invalid', () => {
    const good = signBody(body, secret);
    const hex = good.slice('sha256='.length);
    assert.equal(verifySignature(body, secret, hex), 'invalid');
    assert.equal(verifySignature(body, secret, `sha256=${hex.slice(0, 62)}`), 'invalid');
    assert.equal(verifySignature(body, secret, `sha256=${hex}00`), 'invalid');
    assert.equal(verifySignature(body, secret, `sha256=${'z'.repeat(64)}`), 'invalid');
    assert.equal(verifySignature(body, secret, `sha1=${hex.slice(0, 40)}`), 'invalid');
    assert.equal(verifySignature(body, secret, [good, good]), 'invalid');
  });
});
