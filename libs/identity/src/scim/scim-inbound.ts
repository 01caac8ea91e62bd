import type { InboundMediaTypes } from '@taproot/runtime';
import { SCIM_MEDIA_TYPE } from './scim-errors';
import { SCIM_BASE_PATH } from './scim-token';

/**
 * SCIM clients send `application/scim+json` (RFC 7644 §3.1), some plain `application/json`; the
 * api parses the first like the second. Only `/v1` routes are held to JSON:API's media type.
 */
export const SCIM_INBOUND: InboundMediaTypes = {
  accepts: (url, mediaType) => url.startsWith(`${SCIM_BASE_PATH}/`) && (mediaType === SCIM_MEDIA_TYPE || mediaType === 'application/json'),
  json: [SCIM_MEDIA_TYPE],
};
