import { INVALID_ATTRIBUTE, type ErrorTable } from '@taproot/json-api';

/** The refusals of status pages, their templates and team grants (docs/status-pages.md). */
export enum StatusPagesErrorCode {
  OwnerOrAdminRequired = 'OWNER_OR_ADMIN_REQUIRED',
  // Attribute-level refusals (422 `Invalid attribute`: JsonApiError.invalidAttributes).
  InvalidTimeZone = 'INVALID_TIME_ZONE',
  InvalidColor = 'INVALID_COLOR',
  InvalidDomainName = 'INVALID_DOMAIN_NAME',
  DuplicateSection = 'DUPLICATE_SECTION',
  PasswordRequired = 'PASSWORD_REQUIRED',
  UnknownReference = 'UNKNOWN_REFERENCE',
  StatusNotOfKind = 'STATUS_NOT_OF_KIND',
  TeamAlreadyGranted = 'TEAM_ALREADY_GRANTED',
  UnknownProperty = 'UNKNOWN_PROPERTY',
}

export const STATUS_PAGES_ERRORS: ErrorTable<StatusPagesErrorCode> = {
  [StatusPagesErrorCode.OwnerOrAdminRequired]: { status: 403, title: 'Forbidden' },
  [StatusPagesErrorCode.InvalidTimeZone]: INVALID_ATTRIBUTE,
  [StatusPagesErrorCode.InvalidColor]: INVALID_ATTRIBUTE,
  [StatusPagesErrorCode.InvalidDomainName]: INVALID_ATTRIBUTE,
  [StatusPagesErrorCode.DuplicateSection]: INVALID_ATTRIBUTE,
  [StatusPagesErrorCode.PasswordRequired]: INVALID_ATTRIBUTE,
  [StatusPagesErrorCode.UnknownReference]: INVALID_ATTRIBUTE,
  [StatusPagesErrorCode.StatusNotOfKind]: INVALID_ATTRIBUTE,
  [StatusPagesErrorCode.TeamAlreadyGranted]: INVALID_ATTRIBUTE,
  [StatusPagesErrorCode.UnknownProperty]: INVALID_ATTRIBUTE,
};
