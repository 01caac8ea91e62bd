import { afterAll, beforeAll, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { FakeTwilio } from './fake-twilio';

/** The fake's own checks: the channel tests trust it to refuse what Twilio refuses. */
describe('FakeTwilio', () => {
  const twilio = new FakeTwilio();
  let base = '';
  beforeAll(async () => {
    base = await twilio.start();
  });
  afterAll(() => twilio.close());

  const auth = () => `Basic ${Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString('base64')}`;
  async function post(resource: string, form: Record<string, string> | string, headers: Record<string, string> = {}) {
    const response = await fetch(`${base}/2010-04-01/Accounts/${twilio.accountSid}/${resource}`, {
      method: 'POST',
      headers: { authorization: auth(), 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
    });
    // Parsed here, not with response.json(): its objects are of Node's realm (docs/decisions/0004).
    return { status: response.status, body: JSON.parse(await response.text()) as Record<string, unknown> };
  }

  test('accepts a message and a call as Twilio does: 201, a sid, status queued', async () => {
    const sms = await post('Messages.json', { To: '+447700900123', From: '+15005550006', Body: 'hi' });
    assert.equal(sms.status, 201);
    assert.match(String(sms.body.sid), /^SM[0-9a-f]{32}$/);
    assert.equal(sms.body.status, 'queued');
    const call = await post('Calls.json', { To: '+447700900123', From: '+15005550006', Twiml: '<Response/>' });
    assert.equal(call.status, 201);
    assert.match(String(call.body.sid), /^CA[0-9a-f]{32}$/);
  });

  test('refuses as Twilio does, with its error shape and codes', async () => {
    const valid = { To: '+447700900123', From: '+15005550006', Body: 'hi' };
    const accepted = twilio.requests.length;
    for (const [resource, form, headers, status, code] of [
      ['Messages.json', { ...valid, To: '07700900123' }, {}, 400, 21211],
      ['Messages.json', { ...valid, From: 'Taproot' }, {}, 400, 21212],
      ['Messages.json', { To: valid.To, From: valid.From }, {}, 400, 21602],
      ['Messages.json', { ...valid, Body: 'x'.repeat(1601) }, {}, 400, 21617],
      ['Calls.json', { To: valid.To, From: valid.From }, {}, 400, 21205],
      ['Messages.json', JSON.stringify(valid), { 'content-type': 'application/json' }, 400, 21604],
      ['Messages.json', valid, { authorization: 'Basic ' + Buffer.from(`${twilio.accountSid}:wrong`).toString('base64') }, 401, 20003],
      ['Faxes.json', valid, {}, 404, 20404],
    ] as const) {
      const answer = await post(resource, form, headers);
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      assert.equal(answer.body.code, code);
      assert.equal(answer.body.status, status);
      assert.equal(typeof answer.body.message, 'string');
      assert.equal(answer.body.more_info, `https://www.twilio.com/docs/errors/${code}`);
    }
    assert.equal(twilio.requests.length, accepted, 'refused requests are not recorded as accepted');
  });
});
