import { CreateAlertUrgenciesAndFields1732300002000 } from './migrations/1732300002000-create-alert-urgencies-and-fields';

export { AlertingModule, ALERTING_RESOURCES } from './alerting.module';
export { alertUrgencySchema, alertUrgencyDefinition } from './alert-urgencies/alert-urgency.schema';
export { alertFieldSchema, alertFieldDefinition, ALERT_FIELD_KINDS } from './alert-fields/alert-field.schema';
export * from './alerts/alert.state';

export const ALERTING_MIGRATIONS = [CreateAlertUrgenciesAndFields1732300002000];
