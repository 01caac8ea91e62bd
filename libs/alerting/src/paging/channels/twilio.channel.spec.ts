import { afterEach, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { inspect } from 'node:util';
import type { OutgoingNotification } from './notification-channel';
import { channelFailureOf as failureOf, FakeTwilio, OpenResources, outgoingNotification, type FakeTwilioOptions } from './testing';
import { TwilioSmsChannel, TwilioVoiceChannel, type TwilioOptions } from './twilio.channel';

const FROM_NUMBER = '+15005550006';

/** An SMS page to a UK mobile; the alert has no web URL. */
function notification(overrides: Partial<OutgoingNotification> = {}): OutgoingNotification {
  const base = outgoingNotification({ channel: 'sms', address: '+447700900123' });
  return { ...base, alert: { ...base.alert, description: 'Since 10:02 UTC.', url: null }, ...overrides };
}

const open = new OpenResources();
afterEach(() => open.closeAll());

async function fakeAndOptions(fakeOptions: FakeTwilioOptions = {}, change: Partial<TwilioOptions> = {}) {
  const twilio = open.track(new FakeTwilio(fakeOptions));
  const options: TwilioOptions = { accountSid: twilio.accountSid, authToken: twilio.authToken, fromNumber: FROM_NUMBER, apiUrl: await twilio.start(), timeoutMs: 2000, ...change };
  return { twilio, options };
}

describe('TwilioSmsChannel against a fake Twilio', () => {
  test('POSTs To, From and Body as a form to the account\'s Messages resource, with Basic auth and the idempotency token; the sid is the provider id', async () => {
    const { twilio, options } = await fakeAndOptions();
    const sent = await new TwilioSmsChannel(options).send(notification());
    assert.equal(twilio.requests.length, 1);
    const [request] = twilio.requests;
    assert.equal(request.kind, 'sms');
    assert.equal(request.path, `/2010-04-01/Accounts/${twilio.accountSid}/Messages.json`);
    assert.equal(request.headers.authorization, `Basic ${Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString('base64')}`);
    assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(request.headers['i-twilio-idempotency-token'], '8c1f0d2e-4b7a-4e43-9d0f-2f5c3a1b6e70');
    assert.equal(request.form.To, '+447700900123');
    assert.equal(request.form.From, FROM_NUMBER);
    assert.equal(request.form.Body, '[Taproot] Alert x7Kp2a (level 2): Checkout p99 latency above 2 s\nAcknowledge: https://taproot.example.com/v1/acknowledge?token=abc.def');
    assert.match(request.sid, /^SM[0-9a-f]{32}$/);
    assert.equal(sent.providerId, request.sid);
  });

  test('a long summary is cut so the body stays within 1600 characters, the acknowledge link whole', async () => {
    const { twilio, options } = await fakeAndOptions();
    const alert = { ...notification().alert, summary: 'disk full '.repeat(400) };
    await new TwilioSmsChannel(options).send(notification({ alert }));
    const body = twilio.requests[0].form.Body;
    assert.equal(body.length, 1600);
    assert.ok(body.endsWith('...\nAcknowledge: https://taproot.example.com/v1/acknowledge?token=abc.def'), body.slice(-120));
  });

  test('an API base with a path (a Twilio-compatible provider) keeps it', async () => {
    const twilio = open.track(new FakeTwilio());
    const base = await twilio.start();
    // The fake serves /2010-04-01/ at its root, so a base with a path must reach a different path: 404.
    const failure = await failureOf(new TwilioSmsChannel({ accountSid: twilio.accountSid, authToken: twilio.authToken, fromNumber: FROM_NUMBER, apiUrl: `${base}/api/laml/` }).send(notification()));
    assert.match(failure.message, /^Twilio 404/);
    await new TwilioSmsChannel({ accountSid: twilio.accountSid, authToken: twilio.authToken, fromNumber: FROM_NUMBER, apiUrl: `${base}/` }).send(notification());
    assert.equal(twilio.requests.length, 1, 'a trailing slash is not doubled');
  });

  test('bad credentials (401, code 20003) are a permanent failure that names no token', async () => {
    const { twilio, options } = await fakeAndOptions({}, { authToken: 'wrong-token-value' });
    const failure = await failureOf(new TwilioSmsChannel(options).send(notification()));
    assert.equal(failure.permanent, true);
    assert.match(failure.message, /^Twilio 401: 20003 Authenticate/);
    assert.ok(!failure.message.includes('wrong-token-value') && !failure.message.includes(twilio.authToken));
  });

  test('a request Twilio refuses with 400 (here a From number it does not take, 21212) is permanent', async () => {
    const { twilio, options } = await fakeAndOptions({}, { fromNumber: 'not-a-number' });
    const failure = await failureOf(new TwilioSmsChannel(options).send(notification()));
    assert.equal(failure.permanent, true);
    assert.match(failure.message, /^Twilio 400: 21212/);
    assert.equal(twilio.received, 1);
  });

  test('a 500 is a failure to retry, and the retry goes through', async () => {
    const { twilio, options } = await fakeAndOptions({ failFirst: { count: 1, status: 500 } });
    const channel = new TwilioSmsChannel(options);
    const failure = await failureOf(channel.send(notification()));
    assert.equal(failure.permanent, false);
    assert.match(failure.message, /^Twilio 500: 20500/);
    await channel.send(notification());
    assert.equal(twilio.requests.length, 1);
  });

  test('a 429 is a failure to retry', async () => {
    const { options } = await fakeAndOptions({ failFirst: { count: 1, status: 429 } });
    const failure = await failureOf(new TwilioSmsChannel(options).send(notification()));
    assert.equal(failure.permanent, false);
    assert.match(failure.message, /^Twilio 429: 20429/);
  });

  test('inspecting or logging a channel shows no auth token', async () => {
    const { twilio, options } = await fakeAndOptions();
    for (const channel of [new TwilioSmsChannel(options), new TwilioVoiceChannel(options)]) {
      assert.ok(!inspect(channel, { depth: 10 }).includes(twilio.authToken) && !JSON.stringify(channel).includes(twilio.authToken));
    }
  });

  test('an address that is not E.164 fails permanently without a request, and is not repeated', async () => {
    const { twilio, options } = await fakeAndOptions();
    for (const address of ['07700900123', '+0447700900123', '+44 7700 900123', '+1234567890123456', 'oncall@example.com']) {
      const failure = await failureOf(new TwilioSmsChannel(options).send(notification({ address })));
      assert.equal(failure.permanent, true);
      assert.ok(!failure.message.includes(address));
    }
    assert.equal(twilio.received, 0);
  });

  test('no server listening is a failure to retry, naming the network error', async () => {
    const twilio = new FakeTwilio();
    const apiUrl = await twilio.start();
    await twilio.close();
    const failure = await failureOf(new TwilioSmsChannel({ accountSid: twilio.accountSid, authToken: twilio.authToken, fromNumber: FROM_NUMBER, apiUrl }).send(notification()));
    assert.equal(failure.permanent, false);
    assert.match(failure.message, /ECONNREFUSED/);
  });

  test('a provider that does not answer is a failure to retry after the timeout', async () => {
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    open.track({ close: () => new Promise<void>((resolve) => { silent.closeAllConnections(); silent.close(() => resolve()); }) });
    const apiUrl = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
    const started = Date.now();
    const failure = await failureOf(new TwilioSmsChannel({ accountSid: 'AC1', authToken: 't', fromNumber: FROM_NUMBER, apiUrl, timeoutMs: 300 }).send(notification()));
    assert.equal(failure.permanent, false);
    assert.ok(Date.now() - started < 5000);
  });
});

describe('TwilioVoiceChannel against a fake Twilio', () => {
  test('POSTs To, From and TwiML that reads the alert out (XML-escaped) to the Calls resource; the call sid is the provider id', async () => {
    const { twilio, options } = await fakeAndOptions();
    const alert = { ...notification().alert, summary: 'Checkout <p99> & "latency"' };
    const sent = await new TwilioVoiceChannel(options).send(notification({ channel: 'call', alert }));
    const [request] = twilio.requests;
    assert.equal(request.kind, 'call');
    assert.equal(request.path, `/2010-04-01/Accounts/${twilio.accountSid}/Calls.json`);
    assert.equal(request.headers.authorization, `Basic ${Buffer.from(`${twilio.accountSid}:${twilio.authToken}`).toString('base64')}`);
    assert.equal(request.headers['i-twilio-idempotency-token'], '8c1f0d2e-4b7a-4e43-9d0f-2f5c3a1b6e70');
    assert.equal(request.form.To, '+447700900123');
    assert.equal(request.form.From, FROM_NUMBER);
    assert.equal(
      request.form.Twiml,
      '<Response><Say loop="2">Taproot alert x7Kp2a. Escalation level 2. Checkout &lt;p99&gt; &amp; &quot;latency&quot;. Status: triggered. Acknowledge it with the link in your text or e-mail, or in Taproot.</Say></Response>',
    );
    assert.match(request.sid, /^CA[0-9a-f]{32}$/);
    assert.equal(sent.providerId, request.sid);
  });

  test('a long summary full of characters to escape stays within TwiML\'s 4000 characters', async () => {
    const { twilio, options } = await fakeAndOptions();
    const alert = { ...notification().alert, summary: '"'.repeat(5000) };
    await new TwilioVoiceChannel(options).send(notification({ channel: 'call', alert }));
    assert.ok(twilio.requests[0].form.Twiml.length <= 4000);
  });

  test('control characters from the source are not put into the TwiML', async () => {
    const { twilio, options } = await fakeAndOptions();
    const alert = { ...notification().alert, summary: 'disk\u0000full\u0007now' };
    await new TwilioVoiceChannel(options).send(notification({ channel: 'call', alert }));
    assert.match(twilio.requests[0].form.Twiml, /disk full now/);
  });

  test('bad credentials are permanent, an address that is not E.164 is permanent without a request', async () => {
    const { twilio, options } = await fakeAndOptions({}, { authToken: 'wrong' });
    assert.equal((await failureOf(new TwilioVoiceChannel(options).send(notification({ channel: 'call' })))).permanent, true);
    assert.equal((await failureOf(new TwilioVoiceChannel(options).send(notification({ channel: 'call', address: '12345' })))).permanent, true);
    assert.equal(twilio.received, 1);
  });
});
