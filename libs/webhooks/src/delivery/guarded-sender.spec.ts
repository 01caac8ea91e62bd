import { afterEach, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { getDefaultAutoSelectFamily, setDefaultAutoSelectFamily, type AddressInfo } from 'node:net';
import { createGuardedSender, type GuardedSenderOptions, type ResolveAll } from './guarded-sender';
import type { WebhookSender } from './webhook-sender';

const LOCAL = ['127.0.0.0/8'];

/** Servers and senders a test opened, closed whatever the test left open. */
let open: { close(): Promise<void> }[] = [];
const track = <T extends { close(): Promise<void> }>(resource: T): T => (open.push(resource), resource);
afterEach(async () => {
  for (const resource of open.splice(0).reverse()) await resource.close();
  open = [];
});

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP server on 127.0.0.1 that records what reaches it; answers 200 "ok" unless told otherwise. */
async function receiver(answer: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end('ok')) {
  const requests: Received[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(req, res);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  track({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return { port, url: `http://127.0.0.1:${port}`, requests, connections: () => connections };
}

const sender = (options: GuardedSenderOptions = {}): WebhookSender => track(createGuardedSender(options));
const post = (url: string, body = '{"event":{"id":"e-1"}}', headers: Record<string, string> = { 'content-type': 'application/json' }) => ({ url, headers, body });

/** A resolver answering each call with the next of `answers` (the last one repeats), recording the names asked. */
function scriptedLookup(...answers: (string[] | NodeJS.ErrnoException)[]) {
  const asked: string[] = [];
  const lookup: ResolveAll = (hostname, _options, callback) => {
    asked.push(hostname);
    const answer = answers[Math.min(asked.length, answers.length) - 1];
    setImmediate(() =>
      answer instanceof Error ? callback(answer, []) : callback(null, answer.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }))),
    );
  };
  return { lookup, asked };
}

describe('createGuardedSender delivering', () => {
  test('with 127.0.0.0/8 allowed, POSTs the body and headers intact and returns the answer', async () => {
    const local = await receiver((_req, res) => res.writeHead(202, { 'content-type': 'text/plain' }).end('accepted'));
    const body = '{"event":{"id":"e-1","type":"incident.created"},"data":{"title":"Checkout is down ✓"}}';
    const outcome = await sender({ allowedNetworks: LOCAL }).send(post(`${local.url}/hooks/taproot?team=sre`, body, { 'content-type': 'application/json', 'X-Rootly-Signature': 't=1,v1=ab', 'webhook-id': 'e-1' }));
    assert.deepEqual(outcome, { status: 202, body: 'accepted', error: null, blocked: false });
    assert.equal(local.requests.length, 1);
    const [received] = local.requests;
    assert.equal(received.method, 'POST');
    assert.equal(received.url, '/hooks/taproot?team=sre');
    assert.equal(received.body, body);
    assert.equal(received.headers['content-type'], 'application/json');
    assert.equal(received.headers['content-length'], String(Buffer.byteLength(body)));
    assert.equal(received.headers['x-rootly-signature'], 't=1,v1=ab');
    assert.equal(received.headers['webhook-id'], 'e-1');
    assert.equal(received.headers['user-agent'], 'Taproot-Webhooks');
  });

  test("the request's own User-Agent is sent instead of the sender's, once", async () => {
    const local = await receiver();
    await sender({ allowedNetworks: LOCAL, userAgent: 'Other/1' }).send(post(local.url, '{}', { 'User-Agent': 'Receiver-Test/2' }));
    assert.equal(local.requests[0].headers['user-agent'], 'Receiver-Test/2');
    const only = await receiver();
    await sender({ allowedNetworks: LOCAL, userAgent: 'Other/1' }).send(post(only.url));
    assert.equal(only.requests[0].headers['user-agent'], 'Other/1');
  });

  test('a host name is resolved by the lookup, and an allowed answer is delivered to', async () => {
    const local = await receiver();
    const { lookup, asked } = scriptedLookup(['127.0.0.1']);
    const outcome = await sender({ allowedNetworks: LOCAL, lookup }).send(post(`http://receiver.test:${local.port}/in`));
    assert.deepEqual(outcome, { status: 200, body: 'ok', error: null, blocked: false });
    assert.deepEqual(asked, ['receiver.test']);
    assert.equal(local.requests[0].headers.host, `receiver.test:${local.port}`);
  });

  test('with Node\'s address family autoselection off (one address asked for), the checked answer is connected to', async () => {
    const local = await receiver();
    const { lookup } = scriptedLookup(['127.0.0.1']);
    const before = getDefaultAutoSelectFamily();
    setDefaultAutoSelectFamily(false);
    try {
      assert.equal((await sender({ allowedNetworks: LOCAL, lookup }).send(post(`http://receiver.test:${local.port}/`))).status, 200);
    } finally {
      setDefaultAutoSelectFamily(before);
    }
  });

  test('a 410 comes back as status 410 with its body; so does a 500', async () => {
    const gone = await receiver((_req, res) => res.writeHead(410).end('endpoint removed'));
    assert.deepEqual(await sender({ allowedNetworks: LOCAL }).send(post(gone.url)), { status: 410, body: 'endpoint removed', error: null, blocked: false });
    const broken = await receiver((_req, res) => res.writeHead(500).end());
    assert.deepEqual(await sender({ allowedNetworks: LOCAL }).send(post(broken.url)), { status: 500, body: '', error: null, blocked: false });
  });

  test('a redirect is not followed: the 302 is the outcome and its target sees nothing', async () => {
    const second = await receiver();
    const first = await receiver((_req, res) => res.writeHead(302, { location: `${second.url}/elsewhere` }).end());
    const outcome = await sender({ allowedNetworks: LOCAL }).send(post(first.url));
    assert.deepEqual(outcome, { status: 302, body: '', error: null, blocked: false });
    assert.equal(first.requests.length, 1);
    assert.equal(second.requests.length, 0);
  });
});

describe('createGuardedSender refusing (SSRF guard)', () => {
  test.each([
    ['http://127.0.0.1:PORT/', 'refused: 127.0.0.1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]:PORT/', 'refused: ::ffff:7f00:1 is a loopback address (127.0.0.1 in IPv4-mapped form)'],
    ['http://[::ffff:7f00:1]:PORT/', 'refused: ::ffff:7f00:1 is a loopback address (127.0.0.1 in IPv4-mapped form)'],
    ['http://2130706433:PORT/', 'refused: 127.0.0.1 is a loopback address'],
    ['http://0x7f.1:PORT/', 'refused: 127.0.0.1 is a loopback address'],
    ['http://169.254.169.254/latest/meta-data/', 'refused: 169.254.169.254 is a link-local address'],
    ['http://[fd00::1]/', 'refused: fd00::1 is a private address'],
  ])('without an allowance, %s is refused and nothing is sent', async (url, words) => {
    const local = await receiver();
    const outcome = await sender().send(post(url.replace('PORT', String(local.port))));
    assert.deepEqual(outcome, { status: null, body: null, error: words, blocked: true });
    assert.equal(local.connections(), 0);
  });

  test("a host name's answer is checked: localhost and a name resolving to 10.0.0.5 are refused", async () => {
    const local = await receiver();
    const localhost = await sender().send(post(`http://localhost:${local.port}/`));
    assert.equal(localhost.blocked, true);
    assert.match(String(localhost.error), /^refused: (127\.0\.0\.1|::1) is a loopback address$/);
    const { lookup } = scriptedLookup(['10.0.0.5']);
    assert.deepEqual(await sender({ allowedNetworks: LOCAL, lookup }).send(post('http://intranet.example/')), {
      status: null,
      body: null,
      error: 'refused: 10.0.0.5 is a private address',
      blocked: true,
    });
    assert.equal(local.connections(), 0);
  });

  test('DNS rebinding: the answer the socket connects to is the one checked, on every connection', async () => {
    const local = await receiver();
    // First a public address (TEST-NET-1: routed nowhere), then the local server's.
    const { lookup, asked } = scriptedLookup(['192.0.2.1'], ['127.0.0.1']);
    const rebinding = sender({ lookup, timeoutMs: 500 });
    const url = `http://rebind.example:${local.port}/`;
    const first = await rebinding.send(post(url));
    assert.equal(first.status, null);
    assert.equal(first.blocked, false, 'the public address was allowed, and got no answer');
    assert.deepEqual(await rebinding.send(post(url)), { status: null, body: null, error: 'refused: 127.0.0.1 is a loopback address', blocked: true });
    assert.deepEqual(asked, ['rebind.example', 'rebind.example'], 'one resolution per connection, none beside it');
    assert.equal(local.connections(), 0);
  });

  test('an answer with a public and a refused address is refused as a whole', async () => {
    const local = await receiver();
    const { lookup } = scriptedLookup(['192.0.2.1', '127.0.0.1']);
    const outcome = await sender({ lookup }).send(post(`http://mixed.example:${local.port}/`));
    assert.deepEqual(outcome, { status: null, body: null, error: 'refused: 127.0.0.1 is a loopback address', blocked: true });
    assert.equal(local.connections(), 0);
  });

  test('only http: and https: URLs, and only URLs, are sent to', async () => {
    const guarded = sender({ allowedNetworks: LOCAL });
    assert.deepEqual(await guarded.send(post('ftp://127.0.0.1/x')), { status: null, body: null, error: 'refused: ftp: URLs are not delivered (only http: and https:)', blocked: true });
    assert.deepEqual(await guarded.send(post('file:///etc/passwd')), { status: null, body: null, error: 'refused: file: URLs are not delivered (only http: and https:)', blocked: true });
    assert.deepEqual(await guarded.send(post('/relative/path')), { status: null, body: null, error: 'refused: the URL is not an absolute URL', blocked: true });
  });

  test('an allowed network that is not a CIDR is refused at construction, named', () => {
    assert.throws(() => createGuardedSender({ allowedNetworks: ['127.0.0.0/8', '10.0.0.0/40'] }), /"10\.0\.0\.0\/40" is not a network in CIDR notation/);
  });
});

describe('createGuardedSender bounding an attempt', () => {
  test('a server that never answers gives "timed out" within timeoutMs', async () => {
    const silent = await receiver(() => undefined);
    const started = performance.now();
    const outcome = await sender({ allowedNetworks: LOCAL, timeoutMs: 300 }).send(post(silent.url));
    const elapsed = performance.now() - started;
    assert.deepEqual(outcome, { status: null, body: null, error: 'timed out after 300 ms', blocked: false });
    assert.ok(elapsed >= 290 && elapsed < 1000, `took ${elapsed} ms`);
  });

  test('the deadline covers resolving: a resolver that never answers gives "timed out"', async () => {
    const outcome = await sender({ timeoutMs: 300, lookup: () => undefined }).send(post('http://stuck.example/'));
    assert.deepEqual(outcome, { status: null, body: null, error: 'timed out after 300 ms', blocked: false });
  });

  test('the deadline covers the body: an answer trickling forever ends at timeoutMs with its status and what came', async () => {
    const trickling = await receiver((_req, res) => {
      res.writeHead(200).write('a');
      const timer = setInterval(() => res.write('a'), 50);
      res.on('close', () => clearInterval(timer));
    });
    const started = performance.now();
    const outcome = await sender({ allowedNetworks: LOCAL, timeoutMs: 400 }).send(post(trickling.url));
    const elapsed = performance.now() - started;
    assert.equal(outcome.status, 200);
    assert.match(String(outcome.body), /^a{2,10}$/);
    assert.equal(outcome.error, null);
    assert.ok(elapsed >= 390 && elapsed < 1000, `took ${elapsed} ms`);
  });

  test('a 10 MB answer yields at most maxResponseBytes of body, promptly, and is not read to its end', async () => {
    const total = 10 * 1024 * 1024;
    let written = 0;
    let finished: Promise<boolean> = Promise.resolve(false);
    const streaming = await receiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      finished = new Promise((resolve) => res.on('close', () => resolve(res.writableFinished)));
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const more = () => {
        while (written < total) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    });
    const started = performance.now();
    const outcome = await sender({ allowedNetworks: LOCAL, maxResponseBytes: 1000, timeoutMs: 5000 }).send(post(streaming.url));
    const elapsed = performance.now() - started;
    assert.equal(outcome.status, 200);
    assert.equal(outcome.body, 'a'.repeat(1000));
    assert.ok(elapsed < 1000, `took ${elapsed} ms`);
    assert.equal(await finished, false, 'the server could not finish: the connection was dropped');
    assert.ok(written < total, `the server wrote ${written} bytes`);
  });

  test('a character cut by the cap is left out of the body', async () => {
    const local = await receiver((_req, res) => res.end('ab✓cd'));
    assert.equal((await sender({ allowedNetworks: LOCAL, maxResponseBytes: 4 }).send(post(local.url))).body, 'ab');
  });

  test('NUL characters of a body, which PostgreSQL text cannot hold, come back as U+FFFD, so the outcome can be recorded', async () => {
    const local = await receiver((_req, res) => res.end(Buffer.from('ok\u0000done\u0000', 'utf8')));
    assert.equal((await sender({ allowedNetworks: LOCAL }).send(post(local.url))).body, 'ok\uFFFDdone\uFFFD');
  });

  test('no answer in words: connection refused, connection closed, DNS failure', async () => {
    const closed = await receiver();
    await new Promise<void>((resolve) => open.pop()?.close().then(resolve));
    const guarded = sender({ allowedNetworks: LOCAL });
    assert.deepEqual(await guarded.send(post(closed.url)), { status: null, body: null, error: 'connection refused', blocked: false });

    const dropping = await receiver((req) => req.socket.destroy());
    const dropped = await guarded.send(post(dropping.url));
    assert.equal(dropped.status, null);
    assert.match(String(dropped.error), /^connection closed before an answer/);
    assert.equal(dropped.blocked, false);

    const { lookup } = scriptedLookup(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' }));
    assert.deepEqual(await sender({ allowedNetworks: LOCAL, lookup }).send(post('https://nowhere.example/')), {
      status: null,
      body: null,
      error: 'DNS lookup of nowhere.example failed (ENOTFOUND)',
      blocked: false,
    });
  });
});

describe('createGuardedSender reusing connections', () => {
  test('sequential attempts to one origin share one kept-alive connection', async () => {
    const local = await receiver();
    const guarded = sender({ allowedNetworks: LOCAL });
    for (let i = 0; i < 5; i++) {
      assert.equal((await guarded.send(post(`${local.url}/${i}`))).status, 200);
      // undici takes an idle socket back one event-loop turn after its answer (to see a server's
      // close first); an attempt sent sooner opens another connection, up to `connections`.
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(local.requests.length, 5);
    assert.equal(local.connections(), 1);
  });

  test('parallel attempts use up to `connections` sockets per origin', async () => {
    const local = await receiver((_req, res) => setTimeout(() => res.end('ok'), 50));
    const guarded = sender({ allowedNetworks: LOCAL, connections: 3 });
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => guarded.send(post(`${local.url}/${i}`))));
    assert.deepEqual(
      outcomes.map((o) => o.status),
      new Array(12).fill(200),
    );
    assert.equal(local.connections(), 3);
  });
});
