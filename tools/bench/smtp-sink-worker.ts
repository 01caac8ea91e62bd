/**
 * The SMTP server the paging section pages through (paging.ts): the tests' `SmtpSink` (smtp-server
 * and mailparser, a real SMTP conversation) in a worker thread, so that receiving and parsing the
 * e-mails does not queue on the event loop of the api it measures (in a deployment the relay is
 * another machine). The parent asks for what arrived since its last ask; each message comes back
 * as the few fields the bench reads, with the instant its data had all arrived.
 */
import { parentPort } from 'node:worker_threads';
import { SmtpSink } from '@taproot/mail/testing';

/** One received message, as the bench reads it. */
export interface SinkMail {
  to: string[];
  subject: string;
  /** The `X-Taproot-Notification-Id` header: the alert_notifications row it was sent for. */
  notificationId: string | null;
  /** ms since the epoch (`performance.timeOrigin + performance.now()`), when its data had all arrived. */
  receivedAt: number;
}

export type SinkRequest = { ask: 'collect' } | { ask: 'close' };
export type SinkReply = { url: string } | { mails: SinkMail[] } | { closed: true };

if (parentPort) {
  const port = parentPort;
  const sink = new SmtpSink();
  port.on('message', (request: SinkRequest) => {
    if (request.ask === 'collect') {
      // Handed over and forgotten: the sink need not hold the bodies of thousands of pages.
      const fresh = sink.messages.splice(0, sink.messages.length);
      port.postMessage({
        mails: fresh.map((m) => ({ to: m.to, subject: m.subject, notificationId: m.headers['x-taproot-notification-id'] ?? null, receivedAt: m.receivedAt })),
      } satisfies SinkReply);
    } else {
      void sink.close().then(() => port.postMessage({ closed: true } satisfies SinkReply));
    }
  });
  void sink.start().then((url) => port.postMessage({ url } satisfies SinkReply));
}
