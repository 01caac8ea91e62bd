import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { signatureHeaders } from './signatures';

const EVENT_ID = '3f0c2a9e-8d7b-4f6a-9c1e-2b5d4a7e6f10';
const BODY = JSON.stringify({ event: { id: EVENT_ID, type: 'incident.created' }, data: { attributes: { title: 'Ünïcode ✓' } } });

/** What a receiver written for the hosted API does (its documented check), from the header alone. */
function rootlyReceiverAccepts(header: string, body: string, secret: string): boolean {
  const [t, v1] = header.split(',');
  const timestamp = t.split('t=')[1];
  const signature = v1.split('v1=')[1];
  return createHmac('sha256', secret).update(timestamp + body).digest('hex') === signature;
}

describe('signatureHeaders', () => {
  test('X-Rootly-Signature: t=<unix seconds>,v1=<hex HMAC of timestamp + body>, as the hosted API documents it', () => {
    const at = new Date('2026-11-25T12:00:00.750Z');
    const headers = signatureHeaders('s3cret', EVENT_ID, BODY, at);
    assert.match(headers['x-rootly-signature'], /^t=1795608000,v1=[0-9a-f]{64}$/);
    assert.ok(rootlyReceiverAccepts(headers['x-rootly-signature'], BODY, 's3cret'));
    assert.ok(!rootlyReceiverAccepts(headers['x-rootly-signature'], `${BODY} `, 's3cret'), 'another body does not verify');
    assert.ok(!rootlyReceiverAccepts(headers['x-rootly-signature'], BODY, 'other'), 'another secret does not verify');
    // Not the "<t>.<body>" variant some receivers assume.
    const dotted = createHmac('sha256', 's3cret').update(`1795608000.${BODY}`).digest('hex');
    assert.notEqual(headers['x-rootly-signature'].split('v1=')[1], dotted);
  });

  test('Standard Webhooks: the standardwebhooks library verifies a whsec_ secret (base64 key) and a plain one (its bytes, format raw)', () => {
    const standard = `whsec_${randomBytes(24).toString('base64')}`;
    const now = new Date();
    const signed = signatureHeaders(standard, EVENT_ID, BODY, now);
    assert.equal(signed['webhook-id'], EVENT_ID);
    assert.equal(signed['webhook-timestamp'], String(Math.floor(now.getTime() / 1000)));
    assert.deepEqual(new Webhook(standard).verify(BODY, signed), JSON.parse(BODY));

    const plain = 'a-plain-endpoint-secret';
    const headers = signatureHeaders(plain, EVENT_ID, BODY, now);
    assert.deepEqual(new Webhook(plain, { format: 'raw' }).verify(BODY, headers), JSON.parse(BODY));
    assert.throws(() => new Webhook('other-secret', { format: 'raw' }).verify(BODY, headers), /No matching signature/);
    assert.throws(() => new Webhook(plain, { format: 'raw' }).verify(BODY, { ...headers, 'webhook-id': 'another-id' }), /No matching signature/, 'the id is signed');
  });
});
