export { INCIDENTS_CONTEXT } from './incidents.context';
export { IncidentsModule, INCIDENTS_RESOURCES } from './incidents.module';
export * from './incidents/incident.state';
export { subStatusSchema, subStatusDefinition, SUB_STATUS_PARENTS } from './sub-statuses/sub-status.schema';
export { incidentRoleSchema, incidentRoleDefinition } from './incident-roles/incident-role.schema';
export { incidentRoleTaskSchema, incidentRoleTaskDefinition } from './incident-role-tasks/incident-role-task.schema';
export { actionItemSchema, actionItemDefinition, ACTION_ITEM_KINDS, ACTION_ITEM_PRIORITIES, ACTION_ITEM_STATUSES } from './action-items/action-item.schema';
export { incidentSubStatusSchema, incidentSubStatusDefinition } from './incident-sub-statuses/incident-sub-status.schema';
export { incidentKind, incidentParentAccess, underIncident } from './incident-children/incident-parent';
export { publicIncidents, type PublicIncident } from './incidents/public-incidents';
export { incidentEventServiceDefinition, incidentEventFunctionalityDefinition, EVENT_LINK_STATUSES } from './event-links/event-link.schema';

export { INCIDENTS_MIGRATIONS } from './migrations';
export { INCIDENTS_OPENAPI } from './incidents/incident.openapi';
export { INCIDENT_EVENTS, INCIDENT_IMPORT_COMPLETED, type IncidentEventType } from './events';
export { INCIDENT_METRICS, ACTION_ITEM_METRICS, incidentDowntime, type IncidentSubject } from './incidents/incident-metrics';
export { existingFormFieldIds, existingCustomFieldIds, formFieldOptionsOf, customFieldOptionsOf } from './forms/form-field-ports';
