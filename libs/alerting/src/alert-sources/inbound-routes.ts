/**
 * What the api's media-type rule (apps/api start-api.ts) lets through on alerting's public routes,
 * which otherwise take only `application/vnd.api+json` (docs/alert-sources.md): monitoring tools
 * post their own JSON to `/alerts`; mail relays post a raw RFC 822 message or its parsed JSON
 * form to `/emails`.
 */
const INBOUND_URL = /^\/v1\/alert_sources\/[^/?#]+\/(alerts|emails)(?:[?#]|$)/;

/** Raw messages arrive as `message/rfc822`, or `text/plain` from relays that know no better; kept as bytes. */
export const RAW_EMAIL_MEDIA_TYPES = ['message/rfc822', 'text/plain'];
/** Raw emails carry their attachments (skipped by the mapper, but received): a larger limit than JSON's 1 MB. */
export const RAW_EMAIL_BODY_LIMIT = 10 * 1_048_576;

const MEDIA_TYPES: Record<string, string[]> = { alerts: ['application/json'], emails: ['application/json', ...RAW_EMAIL_MEDIA_TYPES] };

/** Whether an inbound route takes a body of `mediaType` besides JSON:API. */
export function inboundAccepts(url: string, mediaType: string | undefined): boolean {
  const route = INBOUND_URL.exec(url)?.[1];
  return route !== undefined && mediaType !== undefined && MEDIA_TYPES[route].includes(mediaType);
}

/** `GET /v1/alerts/receipts/{id}` answers the reference's plain `receipt` object as `application/json`. */
export const PLAIN_JSON_URL = /^\/v1\/alerts\/receipts\/[^/?#]+(?:[?#]|$)/;
