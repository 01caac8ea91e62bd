import type { ResourceObject } from '@taproot/json-api';
import type { AlertDraft } from '../../ingestion';
import type { Receipt } from '../alert-receipts';

/** The request as the api's body parsers leave it: the exact bytes received are kept for the HMAC. */
export interface InboundRequest {
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON, or the raw bytes of a `message/rfc822` / `text/plain` email. */
  body?: unknown;
  rawBody?: Buffer | string;
}

/** Which inbound route received the payload: monitoring JSON, or mail of an email source. */
export type InboundRoute = 'alerts' | 'emails';

/**
 * A monitoring sender's payload for an alert source: authenticate the sender, map the payload
 * to alerts, apply the source's rules and the alert-creation limit, then create, deduplicate or
 * resolve alerts and write a receipt per item, all in one unit of work.
 */
export class IngestAlertsCommand {
  constructor(
    readonly sourceId: string,
    readonly route: InboundRoute,
    readonly request: InboundRequest,
    /** `?secret=`, for senders that cannot sign. */
    readonly secret: unknown,
    /** Drafts another front door already mapped (`POST /v2/enqueue`): no body is mapped, nor needs signing. */
    readonly drafts?: AlertDraft[],
  ) {}
}

/** The 202's document: the alerts the items touched, and a receipt per item. */
export interface IngestedAlerts {
  data: ResourceObject[];
  meta: { receipts: (Receipt & { id: string })[] };
}
