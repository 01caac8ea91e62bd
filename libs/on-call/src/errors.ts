import { INVALID_ATTRIBUTE, type ErrorTable } from '@taproot/json-api';

/** The on-call context's refusals: attribute-level, one 422 error per attribute (JsonApiError.invalidAttributes). */
export enum OnCallErrorCode {
  UnknownUser = 'UNKNOWN_USER',
  UnknownReference = 'UNKNOWN_REFERENCE',
  InvalidTimeZone = 'INVALID_TIME_ZONE',
  InvalidTimeOfDay = 'INVALID_TIME_OF_DAY',
  InvalidTimeRange = 'INVALID_TIME_RANGE',
  InvalidRotationAttributes = 'INVALID_ROTATION_ATTRIBUTES',
  /** An escalation path's rule without what its rule_type needs, or with an operator it does not take. */
  InvalidRule = 'INVALID_RULE',
  /** A deferral path's after_deferral settings that do not fit together (spec: required for deferral paths). */
  InvalidDeferral = 'INVALID_DEFERRAL',
  /** A shift coverage request's range holds no shift (of the user asked for). */
  NoShiftsInRange = 'NO_SHIFTS_IN_RANGE',
  /** Coverage for another user's shift without schedule_override create (reference: 422). */
  OverridePermissionRequired = 'OVERRIDE_PERMISSION_REQUIRED',
  /** A coverage request records the user who made it: a key without a user cannot. */
  RequesterRequired = 'REQUESTER_REQUIRED',
  /** A team named in group_ids already owns the most escalation policies a team may own (spec, Limits). */
  EscalationPolicyLimitReached = 'ESCALATION_POLICY_LIMIT_REACHED',
  /** A pay report's date that is no calendar date, or a currency that is no ISO 4217 code. */
  InvalidPayReport = 'INVALID_PAY_REPORT',
}

export const ON_CALL_ERRORS: ErrorTable<OnCallErrorCode> = {
  [OnCallErrorCode.UnknownUser]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.UnknownReference]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.InvalidTimeZone]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.InvalidTimeOfDay]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.InvalidTimeRange]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.InvalidRotationAttributes]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.InvalidRule]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.InvalidDeferral]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.NoShiftsInRange]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.OverridePermissionRequired]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.RequesterRequired]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.EscalationPolicyLimitReached]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.InvalidPayReport]: INVALID_ATTRIBUTE,
};
