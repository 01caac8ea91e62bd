import { INVALID_ATTRIBUTE, type ErrorTable } from '@taproot/json-api';

/** The on-call context's refusals: attribute-level, one 422 error per attribute (JsonApiError.invalidAttributes). */
export enum OnCallErrorCode {
  UnknownUser = 'UNKNOWN_USER',
  UnknownReference = 'UNKNOWN_REFERENCE',
  InvalidTimeZone = 'INVALID_TIME_ZONE',
  InvalidTimeOfDay = 'INVALID_TIME_OF_DAY',
  InvalidTimeRange = 'INVALID_TIME_RANGE',
  InvalidRotationAttributes = 'INVALID_ROTATION_ATTRIBUTES',
}

export const ON_CALL_ERRORS: ErrorTable<OnCallErrorCode> = {
  [OnCallErrorCode.UnknownUser]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.UnknownReference]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.InvalidTimeZone]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.InvalidTimeOfDay]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.InvalidTimeRange]: INVALID_ATTRIBUTE,
  [OnCallErrorCode.InvalidRotationAttributes]: INVALID_ATTRIBUTE,
};
