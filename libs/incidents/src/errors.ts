import { DomainError, type ErrorTable } from '@taproot/json-api';

/** The incidents context's refusals; the exception filter answers them by INCIDENTS_ERRORS. */
export enum IncidentsErrorCode {
  PermissionDenied = 'PERMISSION_DENIED',
  NotFound = 'NOT_FOUND',
  InvalidTransition = 'INVALID_TRANSITION',
  TrailIsReadOnly = 'TRAIL_IS_READ_ONLY',
}

export const INCIDENTS_ERRORS: ErrorTable<IncidentsErrorCode> = {
  [IncidentsErrorCode.PermissionDenied]: { status: 403, title: 'Forbidden' },
  [IncidentsErrorCode.NotFound]: { status: 404, title: 'Not found' },
  [IncidentsErrorCode.InvalidTransition]: { status: 422, title: 'Invalid status transition' },
  [IncidentsErrorCode.TrailIsReadOnly]: { status: 422, title: 'Read-only timeline event' },
};

export class IncidentsError extends DomainError<IncidentsErrorCode> {}
