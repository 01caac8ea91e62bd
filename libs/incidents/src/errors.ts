import { DomainError, INVALID_ATTRIBUTE, type ErrorTable } from '@taproot/json-api';

/** The incidents context's refusals; the exception filter answers them by INCIDENTS_ERRORS. */
export enum IncidentsErrorCode {
  PermissionDenied = 'PERMISSION_DENIED',
  NotFound = 'NOT_FOUND',
  InvalidTransition = 'INVALID_TRANSITION',
  TrailIsReadOnly = 'TRAIL_IS_READ_ONLY',
  // Attribute-level refusals (422 `Invalid attribute`, one error per attribute: JsonApiError.invalidAttributes).
  UnknownReference = 'UNKNOWN_REFERENCE',
  UnknownUser = 'UNKNOWN_USER',
  Cycle = 'CYCLE',
  TimeOrder = 'TIME_ORDER',
  Taken = 'TAKEN',
  SelfReference = 'SELF_REFERENCE',
  RequiredAttribute = 'REQUIRED_ATTRIBUTE',
  PrivateIsFinal = 'PRIVATE_IS_FINAL',
  NoParent = 'NO_PARENT',
  NotHeld = 'NOT_HELD',
  NotDuplicate = 'NOT_DUPLICATE',
  InvalidStatus = 'INVALID_STATUS',
  FutureTime = 'FUTURE_TIME',
  DisabledRole = 'DISABLED_ROLE',
}

export const INCIDENTS_ERRORS: ErrorTable<IncidentsErrorCode> = {
  [IncidentsErrorCode.PermissionDenied]: { status: 403, title: 'Forbidden' },
  [IncidentsErrorCode.NotFound]: { status: 404, title: 'Not found' },
  [IncidentsErrorCode.InvalidTransition]: { status: 422, title: 'Invalid status transition' },
  [IncidentsErrorCode.TrailIsReadOnly]: { status: 422, title: 'Read-only timeline event' },
  [IncidentsErrorCode.UnknownReference]: INVALID_ATTRIBUTE,
  [IncidentsErrorCode.UnknownUser]: INVALID_ATTRIBUTE,
  [IncidentsErrorCode.Cycle]: INVALID_ATTRIBUTE,
  [IncidentsErrorCode.TimeOrder]: INVALID_ATTRIBUTE,
  [IncidentsErrorCode.Taken]: INVALID_ATTRIBUTE,
  [IncidentsErrorCode.SelfReference]: INVALID_ATTRIBUTE,
  [IncidentsErrorCode.RequiredAttribute]: INVALID_ATTRIBUTE,
  [IncidentsErrorCode.PrivateIsFinal]: INVALID_ATTRIBUTE,
  [IncidentsErrorCode.NoParent]: INVALID_ATTRIBUTE,
  [IncidentsErrorCode.NotHeld]: INVALID_ATTRIBUTE,
  [IncidentsErrorCode.NotDuplicate]: INVALID_ATTRIBUTE,
  [IncidentsErrorCode.InvalidStatus]: INVALID_ATTRIBUTE,
  [IncidentsErrorCode.FutureTime]: INVALID_ATTRIBUTE,
  [IncidentsErrorCode.DisabledRole]: INVALID_ATTRIBUTE,
};

export class IncidentsError extends DomainError<IncidentsErrorCode> {}
