import { DomainError, INVALID_ATTRIBUTE, type ErrorTable } from '@taproot/json-api';

/** Refusals of status page events; the exception filter answers them by STATUS_PAGE_EVENT_ERRORS. */
export enum StatusPageEventErrorCode {
  /** The spec's words for a maintenance's event without a status (States and transitions 2), or with an incident's. */
  InvalidStatusForScheduled = 'INVALID_STATUS_FOR_SCHEDULED',
  // Attribute-level refusals (422 `Invalid attribute`: JsonApiError.invalidAttributes).
  InvalidStatusForIncident = 'INVALID_STATUS_FOR_INCIDENT',
  UnknownStatusPage = 'UNKNOWN_STATUS_PAGE',
}

export const STATUS_PAGE_EVENT_ERRORS: ErrorTable<StatusPageEventErrorCode> = {
  [StatusPageEventErrorCode.InvalidStatusForScheduled]: { status: 422, title: 'Invalid status for scheduled' },
  [StatusPageEventErrorCode.InvalidStatusForIncident]: INVALID_ATTRIBUTE,
  [StatusPageEventErrorCode.UnknownStatusPage]: INVALID_ATTRIBUTE,
};

export class StatusPageEventError extends DomainError<StatusPageEventErrorCode> {}
