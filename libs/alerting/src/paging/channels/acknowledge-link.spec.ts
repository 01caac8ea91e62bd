import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { signAcknowledgeToken, verifyAcknowledgeToken, type AcknowledgeClaims } from './acknowledge-link';

const SECRET = 'acknowledge-secret-0123456789abcdef';
const NOW = new Date('2026-12-01T10:00:00.000Z');
const claims: AcknowledgeClaims = {
  notificationId: '8c1f0d2e-4b7a-4e43-9d0f-2f5c3a1b6e70',
  organizationId: '1d5e3c9a-0b8f-4a2e-8c71-6f4d2b9e0a13',
  alertId: 'f3a9c2d1-7e6b-4d58-a0c4-9b1e8f27d365',
  userId: 42,
  expiresAt: new Date('2026-12-02T10:00:00.123Z'),
};

describe('acknowledge link tokens', () => {
  test('a signed token verifies to the same claims, milliseconds included', () => {
    const token = signAcknowledgeToken(claims, SECRET);
    assert.match(token, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/, 'base64url(JSON).base64url(HMAC-SHA256)');
    assert.deepEqual(verifyAcknowledgeToken(token, SECRET, NOW), claims);
    assert.deepEqual(verifyAcknowledgeToken(signAcknowledgeToken({ ...claims, userId: null }, SECRET), SECRET, NOW), { ...claims, userId: null });
  });

  test('short keys keep it short for a link in an SMS (three UUIDs: about 250 characters)', () => {
    assert.ok(signAcknowledgeToken(claims, SECRET).length <= 260);
  });

  test('another secret does not verify it', () => {
    assert.equal(verifyAcknowledgeToken(signAcknowledgeToken(claims, SECRET), `${SECRET}x`, NOW), null);
  });

  test('expires at expiresAt, not before', () => {
    const token = signAcknowledgeToken(claims, SECRET);
    assert.notEqual(verifyAcknowledgeToken(token, SECRET, new Date(claims.expiresAt.getTime() - 1)), null);
    assert.equal(verifyAcknowledgeToken(token, SECRET, claims.expiresAt), null);
    assert.equal(verifyAcknowledgeToken(token, SECRET, new Date(claims.expiresAt.getTime() + 1)), null);
  });

  test('changed claims are refused: the MAC covers them', () => {
    const [payload, signature] = signAcknowledgeToken(claims, SECRET).split('.');
    const wire = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    for (const changed of [{ ...wire, a: 'another-alert' }, { ...wire, u: 1 }, { ...wire, x: wire.x + 86_400_000 }]) {
      const forged = `${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${signature}`;
      assert.equal(verifyAcknowledgeToken(forged, SECRET, NOW), null);
    }
  });

  test('a bare HMAC of the claims (no context) does not verify: a MAC made for something else is not an acknowledge token', () => {
    const [payload] = signAcknowledgeToken(claims, SECRET).split('.');
    const bare = createHmac('sha256', SECRET).update(Buffer.from(payload, 'base64url')).digest('base64url');
    assert.equal(verifyAcknowledgeToken(`${payload}.${bare}`, SECRET, NOW), null);
  });

  test('malformed tokens are null, not exceptions', () => {
    const token = signAcknowledgeToken(claims, SECRET);
    const [payload, signature] = token.split('.');
    const signed = (json: string) => {
      const body = Buffer.from(json);
      const mac = createHmac('sha256', SECRET).update('taproot.acknowledge.v1\n').update(body).digest('base64url');
      return `${body.toString('base64url')}.${mac}`;
    };
    for (const bad of [
      '',
      '.',
      payload,
      `${payload}.`,
      `${token}.${signature}`,
      `${payload}.${signature.slice(0, -2)}`,
      `${payload}.${signature}=`,
      `${payload}!.${signature}`,
      `${payload.slice(0, -1)}${payload.endsWith('A') ? 'B' : 'A'}.${signature}`,
      'a'.repeat(2000),
      // Signed, but not claims: the shape is checked too.
      signed('not json'),
      signed('[]'),
      signed('{"n":"x","o":"y","a":"z","u":"42","x":1}'),
      signed('{"n":"","o":"y","a":"z","u":null,"x":99999999999999}'),
      signed('{"n":"x","o":"y","a":"z","u":null}'),
    ]) {
      assert.equal(verifyAcknowledgeToken(bad, SECRET, NOW), null, `accepted ${JSON.stringify(bad)}`);
    }
    assert.notEqual(verifyAcknowledgeToken(signed('{"n":"x","o":"y","a":"z","u":null,"x":99999999999999}'), SECRET, NOW), null, 'the hand-made token is otherwise valid');
  });

  test('refuses to sign or verify with an empty secret', () => {
    assert.throws(() => signAcknowledgeToken(claims, ''), /non-empty secret/);
    assert.throws(() => verifyAcknowledgeToken(signAcknowledgeToken(claims, SECRET), '', NOW), /non-empty secret/);
  });
});
