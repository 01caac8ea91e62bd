import { DomainError, INVALID_ATTRIBUTE, type ErrorTable } from '@taproot/json-api';
import { REFUSALS, type RefusalCode } from './alerts/alert.state';

/** The alerting context's refusals; the exception filter answers them by ALERTING_ERRORS. */
export enum AlertingErrorCode {
  InvalidAlertSourceCredentials = 'INVALID_ALERT_SOURCE_CREDENTIALS',
  AlertSourceDisabled = 'ALERT_SOURCE_DISABLED',
  InvalidAlertPayload = 'INVALID_ALERT_PAYLOAD',
  NotANote = 'NOT_A_NOTE',
  InvalidHeartbeatCredentials = 'INVALID_HEARTBEAT_CREDENTIALS',
  // The alert state machine's refusals (alert.state.ts REFUSALS).
  NotPaging = 'NOT_PAGING',
  Ended = 'ENDED',
  DeferBySnooze = 'DEFER_BY_SNOOZE',
  SnoozeMinutes = 'SNOOZE_MINUTES',
  // Attribute-level refusals (422 `Invalid attribute`, one error per attribute: JsonApiError.invalidAttributes).
  UnknownReference = 'UNKNOWN_REFERENCE',
  UnknownNotificationTarget = 'UNKNOWN_NOTIFICATION_TARGET',
  UnknownAlertUrgency = 'UNKNOWN_ALERT_URGENCY',
  IncompleteNotificationTarget = 'INCOMPLETE_NOTIFICATION_TARGET',
  InvalidValue = 'INVALID_VALUE',
  InvalidAlertSourceConfig = 'INVALID_ALERT_SOURCE_CONFIG',
  BuiltInAlertField = 'BUILT_IN_ALERT_FIELD',
}

/** Each refusal of the state machine as its code. */
export const REFUSAL_CODES: Readonly<Record<RefusalCode, AlertingErrorCode>> = {
  not_paging: AlertingErrorCode.NotPaging,
  ended: AlertingErrorCode.Ended,
  defer_by_snooze: AlertingErrorCode.DeferBySnooze,
  snooze_minutes: AlertingErrorCode.SnoozeMinutes,
};

const refused = (code: RefusalCode) => ({ status: REFUSALS[code].status, title: 'Alert status change refused' });

export const ALERTING_ERRORS: ErrorTable<AlertingErrorCode> = {
  [AlertingErrorCode.InvalidAlertSourceCredentials]: { status: 401, title: 'Unauthorized' },
  [AlertingErrorCode.AlertSourceDisabled]: { status: 409, title: 'Alert source disabled' },
  [AlertingErrorCode.InvalidAlertPayload]: { status: 422, title: 'Alert payload not accepted' },
  [AlertingErrorCode.NotANote]: { status: 422, title: 'Not a note' },
  [AlertingErrorCode.InvalidHeartbeatCredentials]: { status: 401, title: 'Unauthorized' },
  [AlertingErrorCode.NotPaging]: refused('not_paging'),
  [AlertingErrorCode.Ended]: refused('ended'),
  [AlertingErrorCode.DeferBySnooze]: refused('defer_by_snooze'),
  [AlertingErrorCode.SnoozeMinutes]: refused('snooze_minutes'),
  [AlertingErrorCode.UnknownReference]: INVALID_ATTRIBUTE,
  [AlertingErrorCode.UnknownNotificationTarget]: INVALID_ATTRIBUTE,
  [AlertingErrorCode.UnknownAlertUrgency]: INVALID_ATTRIBUTE,
  [AlertingErrorCode.IncompleteNotificationTarget]: INVALID_ATTRIBUTE,
  [AlertingErrorCode.InvalidValue]: INVALID_ATTRIBUTE,
  [AlertingErrorCode.InvalidAlertSourceConfig]: INVALID_ATTRIBUTE,
  [AlertingErrorCode.BuiltInAlertField]: { status: 422, title: 'Built-in alert field' },
};

export class AlertingError extends DomainError<AlertingErrorCode> {}
