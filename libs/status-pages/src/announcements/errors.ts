import { INVALID_ATTRIBUTE, type ErrorTable } from '@taproot/json-api';

/** The refusals of status page announcements (docs/status-pages.md, "Announcements"). */
export enum AnnouncementsErrorCode {
  // Attribute-level (422 `Invalid attribute`: JsonApiError.invalidAttributes).
  EndsBeforeStarts = 'ENDS_BEFORE_STARTS',
}

export const ANNOUNCEMENTS_ERRORS: ErrorTable<AnnouncementsErrorCode> = {
  [AnnouncementsErrorCode.EndsBeforeStarts]: INVALID_ATTRIBUTE,
};
