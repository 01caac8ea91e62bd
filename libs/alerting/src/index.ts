export { ALERTING_CONTEXT } from './alerting.context';
export { AlertingModule, ALERTING_RESOURCES } from './alerting.module';
export { alertUrgencySchema, alertUrgencyDefinition } from './alert-urgencies/alert-urgency.schema';
export { alertFieldSchema, alertFieldDefinition, ALERT_FIELD_KINDS } from './alert-fields/alert-field.schema';
export * from './alerts/alert.state';

export { ALERTING_MIGRATIONS } from './migrations';
export { alertSchema, alertDefinition } from './alerts/alert.schema';
export { alertEventSchema, alertEventDefinition, ALERT_EVENT_KINDS, ALERT_EVENT_ACTIONS } from './alerts/alert-event.schema';
export { ALERT_EVENTS, type AlertEventType } from './events';
export { registerAlertingEventContracts } from './event-contracts';
export { ALERTS_OPENAPI } from './alerts/alert.openapi';
export { alertSourceSchema, alertSourceDefinition, ALERT_SOURCE_TYPES } from './alert-sources/alert-source.schema';
export { signBody, SIGNATURE_HEADER } from './ingestion';
export { existingAlertIds, alertSummaries, linkAlertsToIncident, type IncidentLink } from './incident-links/alert-incident-links';
export { ALERT_INCIDENTS, asSeenBy, withAlertIncludes, type AlertIncidents } from './alerts/alert-includes';
export { PagingEngine, NOTIFICATION_CHANNELS, type NotificationChannels } from './paging/paging-engine';
export { HeartbeatMonitor } from './heartbeats/heartbeat-monitor';
export { ALERT_INCIDENT_RESOLVER, type AlertIncidentResolver } from './alerts/alert-incident-resolver';
