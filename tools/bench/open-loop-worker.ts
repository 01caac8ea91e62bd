/**
 * The load generator of `openLoad` and `closedLoad` (harness.ts) for requests autocannon cannot
 * build (each body signed on its own), in a worker thread so it does not share the event loop of
 * the server it measures.
 * - Open loop (`rate`): request i is sent at start + i / rate whether or not earlier requests have
 *   been answered (new keep-alive sockets open as needed), and its latency runs from that
 *   scheduled time to the end of its response: a server that falls behind shows the queueing in
 *   its latencies instead of slowing the sender down (no coordinated omission).
 * - Closed loop (`concurrency`): that many connections each send the next request when the last
 *   is answered, for `seconds` or until the requests run out: the rate the server sustains.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

export interface OpenLoopRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface OpenLoopInput {
  url: string;
  method: 'POST' | 'PUT' | 'PATCH';
  timeoutMs: number;
  requests: OpenLoopRequest[];
  mode: { rate: number } | { concurrency: number; seconds: number };
}

export interface OpenLoopOutput {
  /** Milliseconds from the scheduled (open) or actual (closed) send to the end of the response, of every answered request. */
  latencies: number[];
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  /** From the first send to the last response. */
  elapsedMs: number;
  /** How far behind its schedule the generator itself sent a request, at worst (open loop). */
  maxLagMs: number;
  /**
   * When the run started, in ms since the epoch (`performance.timeOrigin + performance.now()`,
   * comparable across threads): an open loop's request i was scheduled at startedAt + i / rate.
   */
  startedAt: number;
}

async function run({ url, method, timeoutMs, requests, mode }: OpenLoopInput): Promise<OpenLoopOutput> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const target = new URL(url);
  const out: OpenLoopOutput = { latencies: [], statuses: {}, errors: 0, timeouts: 0, elapsedMs: 0, maxLagMs: 0, startedAt: 0 };

  /** Sends one request; resolves once it ends, with its HTTP status, a timeout or a lost connection. */
  const send = (r: OpenLoopRequest, scheduled: number) =>
    new Promise<void>((resolve) => {
      out.maxLagMs = Math.max(out.maxLagMs, performance.now() - scheduled);
      let done = false;
      const finish = (outcome: string) => {
        if (done) return;
        done = true;
        if (outcome === 'error') out.errors++;
        else if (outcome === 'timeout') out.timeouts++;
        else {
          out.latencies.push(performance.now() - scheduled);
          out.statuses[outcome] = (out.statuses[outcome] ?? 0) + 1;
        }
        resolve();
      };
      const body = Buffer.from(r.body);
      const req = request(
        { agent, host: target.hostname, port: target.port, method, path: r.path, headers: { ...r.headers, 'content-length': String(body.length) } },
        (res) => {
          res.resume();
          res.on('end', () => finish(String(res.statusCode)));
        },
      );
      req.setTimeout(timeoutMs, () => {
        finish('timeout');
        req.destroy();
      });
      req.on('error', () => finish('error'));
      req.on('close', () => finish('error'));
      req.end(body);
    });

  const start = performance.now();
  out.startedAt = performance.timeOrigin + start;
  if ('rate' in mode) {
    const interval = 1000 / mode.rate;
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < requests.length; i++) {
      const scheduled = start + i * interval;
      const wait = scheduled - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      inFlight.push(send(requests[i], scheduled));
    }
    await Promise.all(inFlight);
  } else {
    const deadline = start + mode.seconds * 1000;
    let next = 0;
    const loop = async () => {
      while (next < requests.length && performance.now() < deadline) await send(requests[next++], performance.now());
    };
    await Promise.all(Array.from({ length: mode.concurrency }, loop));
  }
  agent.destroy();
  return { ...out, elapsedMs: performance.now() - start };
}

if (parentPort) {
  const port = parentPort;
  void run(workerData as OpenLoopInput).then((result) => port.postMessage(result));
}
