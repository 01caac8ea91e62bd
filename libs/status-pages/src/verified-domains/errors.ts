import { INVALID_ATTRIBUTE, type ErrorTable } from '@taproot/json-api';

/** The refusals of verified domains (docs/status-pages.md, "Verified domains"). */
export enum VerifiedDomainsErrorCode {
  // Attribute-level (422 `Invalid attribute`: JsonApiError.invalidAttributes).
  InvalidDomain = 'INVALID_DOMAIN',
  DomainTaken = 'DOMAIN_TAKEN',
}

export const VERIFIED_DOMAINS_ERRORS: ErrorTable<VerifiedDomainsErrorCode> = {
  [VerifiedDomainsErrorCode.InvalidDomain]: INVALID_ATTRIBUTE,
  [VerifiedDomainsErrorCode.DomainTaken]: INVALID_ATTRIBUTE,
};
