import { DomainError, type ErrorTable } from '@taproot/json-api';

/** The identity context's refusals; the exception filter answers them by IDENTITY_ERRORS. */
export enum IdentityErrorCode {
  Forbidden = 'FORBIDDEN',
  PermissionDenied = 'PERMISSION_DENIED',
  PrivilegeEscalation = 'PRIVILEGE_ESCALATION',
  SystemRoleNotEditable = 'SYSTEM_ROLE_NOT_EDITABLE',
  RoleInUse = 'ROLE_IN_USE',
  LastOwner = 'LAST_OWNER',
  NoCurrentUser = 'NO_CURRENT_USER',
  ApplicationRevoked = 'APPLICATION_REVOKED',
  NoClientSecret = 'NO_CLIENT_SECRET',
}

export const IDENTITY_ERRORS: ErrorTable<IdentityErrorCode> = {
  [IdentityErrorCode.Forbidden]: { status: 403, title: 'Forbidden' },
  [IdentityErrorCode.PermissionDenied]: { status: 403, title: 'Forbidden' },
  [IdentityErrorCode.PrivilegeEscalation]: { status: 403, title: 'Forbidden' },
  [IdentityErrorCode.SystemRoleNotEditable]: { status: 403, title: 'Forbidden' },
  [IdentityErrorCode.RoleInUse]: { status: 409, title: 'Conflict' },
  [IdentityErrorCode.LastOwner]: { status: 409, title: 'Conflict' },
  [IdentityErrorCode.NoCurrentUser]: { status: 404, title: 'Not found' },
  [IdentityErrorCode.ApplicationRevoked]: { status: 409, title: 'Conflict' },
  [IdentityErrorCode.NoClientSecret]: { status: 409, title: 'Conflict' },
};

export class IdentityError extends DomainError<IdentityErrorCode> {}
