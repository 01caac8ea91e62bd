/** One HTTP POST of a delivery: the endpoint's URL, the signed headers and the exact body. */
export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What one attempt got. */
export interface WebhookAttemptOutcome {
  /** The answer's HTTP status; null when none came (address refused, DNS failure, timeout, reset). */
  status: number | null;
  /** The start of the answer's body, at most the sender's cap (for the delivery record). */
  body: string | null;
  /** Why no answer came, in words for the delivery record; null whenever an HTTP answer came. */
  error: string | null;
  /** The SSRF guard refused the target: no request left the machine. */
  blocked: boolean;
}

/** The port deliveries are sent through (docs/webhooks.md, "Where deliveries may go"). */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookAttemptOutcome>;
  close(): Promise<void>;
}
