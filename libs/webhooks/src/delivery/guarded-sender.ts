import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { Agent, request as undiciRequest } from 'undici';
import { createAddressGuard, type AddressGuard } from './address-guard';
import type { WebhookAttemptOutcome, WebhookRequest, WebhookSender } from './webhook-sender';

/** A resolver with the contract of `dns.lookup(hostname, { all: true }, callback)`. */
export type ResolveAll = (hostname: string, options: LookupAllOptions, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

export interface GuardedSenderOptions {
  /** CIDRs the address guard lets through (the operator's WEBHOOK_ALLOWED_NETWORKS); default none. */
  allowedNetworks?: readonly string[];
  /**
   * Bound on a whole attempt, from `send` to the last byte read: waiting for a free connection,
   * resolving, connecting, the request, the answer's headers and body. Default 10 000 ms.
   */
  timeoutMs?: number;
  /** How much of an answer's body is read and kept; the rest is never read. Default 64 KiB. */
  maxResponseBytes?: number;
  /**
   * Kept-alive connections per origin (scheme, host, port). Default 64, the dispatcher's default
   * concurrency, so at the defaults no attempt queues for a connection (the wait counts against
   * its timeout).
   */
  connections?: number;
  /** Resolves host names; default `dns.lookup`. Tests inject answers. */
  lookup?: ResolveAll;
  /** The User-Agent sent when the request's headers have none; default `Taproot-Webhooks`. */
  userAgent?: string;
}

/**
 * Why an attempt got no answer, in the words the outcome records: a guard refusal (`blocked`),
 * a failed DNS lookup or the attempt's deadline. Raised inside undici's connect step or as the
 * abort reason, and found again in what the request rejects with.
 */
class AttemptFailure extends Error {
  constructor(
    message: string,
    readonly blocked: boolean,
  ) {
    super(message);
  }
}

const noAnswer = (error: string, blocked: boolean): WebhookAttemptOutcome => ({ status: null, body: null, error, blocked });

/**
 * The lookup the sockets connect with: it resolves, and the socket then connects only to the
 * addresses the guard accepted in this very answer, so a name cannot pass a check and resolve
 * elsewhere for the connection (DNS rebinding). One refused answer refuses the host: Node tries
 * an answer's addresses in turn, and a public one failing must not lead to a refused one.
 */
function guardedLookup(resolve: ResolveAll, guard: AddressGuard): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { family: options.family, hints: options.hints, all: true }, (error, addresses) => {
      if (error || addresses.length === 0) {
        callback(new AttemptFailure(`DNS lookup of ${hostname} failed (${error?.code ?? error?.message ?? 'no addresses'})`, false), '');
        return;
      }
      const refusal = addresses.map(({ address }) => guard.refusal(address)).find((words) => words !== null);
      if (refusal) callback(new AttemptFailure(refusal, true), '');
      else if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * The URL to send to, or why nothing may be sent. Only http: and https:, and an IP-literal host
 * is checked here: net.connect does not resolve one, so the lookup never sees it.
 */
function targetOf(url: string, guard: AddressGuard): URL | string {
  if (!URL.canParse(url)) return 'refused: the URL is not an absolute URL';
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return `refused: ${target.protocol} URLs are not delivered (only http: and https:)`;
  const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
  return (isIP(host) && guard.refusal(host)) || target;
}

/**
 * The start of a body, at most `maxBytes` of it as UTF-8 text (a character cut by the cap is
 * left out, NUL shown as U+FFFD). Stopping early destroys the body, so undici drops the connection instead of reading
 * the rest. A body the deadline or the connection ends keeps what came: the answer counts by its
 * status.
 */
async function readCapped(body: Readable, maxBytes: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  let room = maxBytes;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      const part = chunk.subarray(0, room);
      text += decoder.decode(part, { stream: true });
      room -= part.length;
      if (room === 0) break;
    }
  } catch {
    // What came before the body failed is the body.
  }
  // The body is kept in a text column, which cannot hold NUL: one would make the outcome unrecordable and the delivery sent again.
  return text.replaceAll('\u0000', '\uFFFD');
}

/** Node's and undici's errors for an attempt without an answer, in words. */
function wordsFor(error: unknown): string {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'UND_ERR_SOCKET':
      return `connection closed before an answer (${(error as Error).message})`;
  }
  // Every address of a host failing (Node's happy eyeballs) comes as one AggregateError.
  if (error instanceof AggregateError && error.errors.length > 0) return wordsFor(error.errors[0]);
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

function attemptFailureIn(error: unknown): AttemptFailure | null {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof AttemptFailure) return cause;
  }
  return null;
}

const hasHeader = (headers: Record<string, string>, name: string) => Object.keys(headers).some((key) => key.toLowerCase() === name);

/**
 * A WebhookSender over undici with an SSRF guard: each attempt POSTs the body to the URL through
 * one shared keep-alive Agent (connections per origin reused across attempts), and the guard
 * (createAddressGuard) judges every address a socket would connect to, in the connect step
 * itself (guardedLookup), so redirects are never followed (a 3xx is the answer) and nothing is
 * resolved twice. An attempt never throws: no answer is an outcome with `status: null` and the
 * reason in words, `blocked` when the guard refused. Bodies are read up to `maxResponseBytes`
 * and the whole attempt is bounded by `timeoutMs`.
 *
 * @throws Error naming the value when one of `allowedNetworks` is not a CIDR.
 */
export function createGuardedSender(options: GuardedSenderOptions = {}): WebhookSender {
  const { timeoutMs = 10_000, maxResponseBytes = 64 * 1024, connections = 64, userAgent = 'Taproot-Webhooks' } = options;
  const guard = createAddressGuard(options.allowedNetworks);
  const agent = new Agent({
    connections,
    // One deadline bounds the whole attempt (send's abort signal); undici's own timers, which
    // count its steps apart, are off.
    connect: { lookup: guardedLookup(options.lookup ?? dnsLookup, guard), timeout: 0 },
    headersTimeout: 0,
    bodyTimeout: 0,
  });

  return {
    async send(request: WebhookRequest): Promise<WebhookAttemptOutcome> {
      const target = targetOf(request.url, guard);
      if (typeof target === 'string') return noAnswer(target, true);
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(new AttemptFailure(`timed out after ${timeoutMs} ms`, false)), timeoutMs);
      try {
        const headers = hasHeader(request.headers, 'user-agent') ? request.headers : { 'user-agent': userAgent, ...request.headers };
        const response = await undiciRequest(target, { dispatcher: agent, method: 'POST', headers, body: request.body, signal: deadline.signal });
        return { status: response.statusCode, body: await readCapped(response.body, maxResponseBytes), error: null, blocked: false };
      } catch (error) {
        const failure = attemptFailureIn(error);
        return failure ? noAnswer(failure.message, failure.blocked) : noAnswer(wordsFor(error), false);
      } finally {
        clearTimeout(timer);
      }
    },
    close: () => agent.close(),
  };
}
