import type { InboundMediaTypes } from '@taproot/runtime';

/**
 * What the api's media-type rule (apps/api start-api.ts) lets through on alerting's public routes,
 * which otherwise take only `application/vnd.api+json` (docs/alert-sources.md): monitoring tools
 * post their own JSON to `/alerts`; mail relays post a raw RFC 822 message or its parsed JSON
 * form to `/emails`.
 */
const INBOUND_URL = /^\/v1\/alert_sources\/[^/?#]+\/(alerts|emails)(?:[?#]|$)/;

/** Raw messages arrive as `message/rfc822`, or `text/plain` from relays that know no better; kept as bytes. */
const RAW_EMAIL_MEDIA_TYPES = ['message/rfc822', 'text/plain'];
/** Raw emails carry their attachments (skipped by the mapper, but received): a larger limit than JSON's 1 MB. */
const RAW_EMAIL_BODY_LIMIT = 10 * 1_048_576;

const MEDIA_TYPES: Record<string, string[]> = { alerts: ['application/json'], emails: ['application/json', ...RAW_EMAIL_MEDIA_TYPES] };

/** The alerting context's inbound media types, as its descriptor gives them to the api. */
export const INBOUND_MEDIA_TYPES: InboundMediaTypes = {
  accepts(url, mediaType) {
    const route = INBOUND_URL.exec(url)?.[1];
    return route !== undefined && mediaType !== undefined && MEDIA_TYPES[route].includes(mediaType);
  },
  raw: { mediaTypes: RAW_EMAIL_MEDIA_TYPES, bodyLimit: RAW_EMAIL_BODY_LIMIT },
  // Plain `application/json` answers: `GET /v1/alerts/receipts/{id}`, the reference's `receipt` object, and
  // `GET /v1/alert_routes/{id}/async_rule_creation_status/{request_id}`, the hosted API's status object.
  plainJson: /^\/v1\/(?:alerts\/receipts|alert_routes\/[^/?#]+\/async_rule_creation_status)\/[^/?#]+(?:[?#]|$)/,
};
