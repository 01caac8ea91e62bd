/**
 * The webhook receiver the webhooks section delivers to (webhooks.ts): a plain node:http server
 * in a worker thread, so that receiving does not queue on the event loop of the dispatcher it
 * measures (a receiver is another machine). It answers 200 after `workerData.answerAfterMs` (0: at
 * once; more: a receiver doing some work, as real ones do) and keeps, per request, the
 * `webhook-id` header and the instant the whole body had arrived; the parent asks for what
 * arrived since its last ask.
 */
import { createServer } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

/** One received request, as the bench reads it. */
export interface Receipt {
  /** `webhook-id`: the event id (the dispatcher's idempotency key); null for a raw POST. */
  id: string | null;
  /** ms since the epoch (`performance.timeOrigin + performance.now()`), when its body had all arrived. */
  receivedAt: number;
}

export type ReceiverRequest = { ask: 'collect' } | { ask: 'close' };
export type ReceiverReply = { url: string } | { receipts: Receipt[] } | { closed: true };

if (parentPort) {
  const port = parentPort;
  const receipts: Receipt[] = [];
  const answerAfterMs = (workerData as { answerAfterMs?: number } | null)?.answerAfterMs ?? 0;
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const id = req.headers['webhook-id'];
      receipts.push({ id: typeof id === 'string' ? id : null, receivedAt: performance.timeOrigin + performance.now() });
      if (answerAfterMs > 0) setTimeout(() => res.writeHead(200, { 'content-length': '0' }).end(), answerAfterMs);
      else res.writeHead(200, { 'content-length': '0' }).end();
    });
  });
  port.on('message', (request: ReceiverRequest) => {
    if (request.ask === 'collect') {
      port.postMessage({ receipts: receipts.splice(0, receipts.length) } satisfies ReceiverReply);
    } else {
      server.closeAllConnections();
      server.close(() => port.postMessage({ closed: true } satisfies ReceiverReply));
    }
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address && typeof address === 'object') port.postMessage({ url: `http://127.0.0.1:${address.port}/hooks` } satisfies ReceiverReply);
  });
}
