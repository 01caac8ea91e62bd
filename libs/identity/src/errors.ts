import { DomainError, INVALID_ATTRIBUTE, type ErrorTable } from '@taproot/json-api';

/** The identity context's refusals; the exception filter answers them by IDENTITY_ERRORS. */
export enum IdentityErrorCode {
  Forbidden = 'FORBIDDEN',
  PermissionDenied = 'PERMISSION_DENIED',
  PrivilegeEscalation = 'PRIVILEGE_ESCALATION',
  SystemRoleNotEditable = 'SYSTEM_ROLE_NOT_EDITABLE',
  RoleInUse = 'ROLE_IN_USE',
  LastOwner = 'LAST_OWNER',
  UserTaken = 'USER_TAKEN',
  NoCurrentUser = 'NO_CURRENT_USER',
  ApplicationRevoked = 'APPLICATION_REVOKED',
  NoClientSecret = 'NO_CLIENT_SECRET',
  // Attribute-level refusals (422 `Invalid attribute`, one error per attribute: JsonApiError.invalidAttributes).
  UnknownRole = 'UNKNOWN_ROLE',
  UnknownUser = 'UNKNOWN_USER',
  Taken = 'TAKEN',
  NameTaken = 'NAME_TAKEN',
  KeyWithoutUser = 'KEY_WITHOUT_USER',
  InvalidScope = 'INVALID_SCOPE',
  InvalidAttribute = 'INVALID_ATTRIBUTE',
  ImmutableAttribute = 'IMMUTABLE_ATTRIBUTE',
  UnknownContactMethod = 'UNKNOWN_CONTACT_METHOD',
  InvalidVerificationToken = 'INVALID_VERIFICATION_TOKEN',
  AlreadyVerified = 'ALREADY_VERIFIED',
}

export const IDENTITY_ERRORS: ErrorTable<IdentityErrorCode> = {
  [IdentityErrorCode.Forbidden]: { status: 403, title: 'Forbidden' },
  [IdentityErrorCode.PermissionDenied]: { status: 403, title: 'Forbidden' },
  [IdentityErrorCode.PrivilegeEscalation]: { status: 403, title: 'Forbidden' },
  [IdentityErrorCode.SystemRoleNotEditable]: { status: 403, title: 'Forbidden' },
  [IdentityErrorCode.RoleInUse]: { status: 409, title: 'Conflict' },
  [IdentityErrorCode.LastOwner]: { status: 409, title: 'Conflict' },
  [IdentityErrorCode.UserTaken]: { status: 409, title: 'Conflict' },
  [IdentityErrorCode.NoCurrentUser]: { status: 404, title: 'Not found' },
  [IdentityErrorCode.ApplicationRevoked]: { status: 409, title: 'Conflict' },
  [IdentityErrorCode.NoClientSecret]: { status: 409, title: 'Conflict' },
  [IdentityErrorCode.UnknownRole]: INVALID_ATTRIBUTE,
  [IdentityErrorCode.UnknownUser]: INVALID_ATTRIBUTE,
  [IdentityErrorCode.Taken]: INVALID_ATTRIBUTE,
  [IdentityErrorCode.NameTaken]: INVALID_ATTRIBUTE,
  [IdentityErrorCode.KeyWithoutUser]: INVALID_ATTRIBUTE,
  [IdentityErrorCode.InvalidScope]: INVALID_ATTRIBUTE,
  [IdentityErrorCode.InvalidAttribute]: INVALID_ATTRIBUTE,
  [IdentityErrorCode.ImmutableAttribute]: INVALID_ATTRIBUTE,
  [IdentityErrorCode.UnknownContactMethod]: INVALID_ATTRIBUTE,
  [IdentityErrorCode.InvalidVerificationToken]: { status: 422, title: 'Invalid token' },
  [IdentityErrorCode.AlreadyVerified]: { status: 422, title: 'Already verified' },
};

export class IdentityError extends DomainError<IdentityErrorCode> {}
