import { CreateAlertUrgenciesAndFields1732300002000 } from './migrations/1732300002000-create-alert-urgencies-and-fields';
import { CreateAlerts1732300002100 } from './migrations/1732300002100-create-alerts';
import { CreateAlertSources1732300002200 } from './migrations/1732300002200-create-alert-sources';
import { AddAlertSourceIds1732300002300 } from './migrations/1732300002300-add-alert-source-ids';
import { CreateAlertReceipts1732300002400 } from './migrations/1732300002400-create-alert-receipts';
import { AlertListFilters1732300002500 } from './migrations/1732300002500-alert-list-filters';
import { AddAlertIncidentIds1732300002600 } from './migrations/1732300002600-add-alert-incident-ids';
import { AlertEventSourceAndUser1732300002700 } from './migrations/1732300002700-alert-event-source-and-user';

export { AlertingModule, ALERTING_RESOURCES } from './alerting.module';
export { alertUrgencySchema, alertUrgencyDefinition } from './alert-urgencies/alert-urgency.schema';
export { alertFieldSchema, alertFieldDefinition, ALERT_FIELD_KINDS } from './alert-fields/alert-field.schema';
export * from './alerts/alert.state';

export const ALERTING_MIGRATIONS = [CreateAlertUrgenciesAndFields1732300002000, CreateAlerts1732300002100, CreateAlertSources1732300002200, AddAlertSourceIds1732300002300, CreateAlertReceipts1732300002400, AlertListFilters1732300002500, AddAlertIncidentIds1732300002600, AlertEventSourceAndUser1732300002700];
export { alertSchema, alertDefinition } from './alerts/alert.schema';
export { alertEventSchema, alertEventDefinition, ALERT_EVENT_KINDS, ALERT_EVENT_ACTIONS } from './alerts/alert-event.schema';
export { ALERT_EVENTS, type AlertEventType } from './events';
export { registerAlertingEventContracts } from './event-contracts';
export { ALERTS_OPENAPI } from './alerts/alert.openapi';
export { alertSourceSchema, alertSourceDefinition, ALERT_SOURCE_TYPES } from './alert-sources/alert-source.schema';
export { inboundAccepts, PLAIN_JSON_URL, RAW_EMAIL_BODY_LIMIT, RAW_EMAIL_MEDIA_TYPES } from './alert-sources/inbound-routes';
export { signBody, SIGNATURE_HEADER } from './ingestion';
export { existingAlertIds, alertSummaries, linkAlertsToIncident, type IncidentLink } from './incident-links/alert-incident-links';
export { ALERT_INCIDENTS, asSeenBy, type AlertIncidents } from './alerts/alert-includes';
