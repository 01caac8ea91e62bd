export { IncidentsModule, INCIDENTS_RESOURCES } from './incidents.module';
export * from './incidents/incident.state';
export { subStatusSchema, subStatusDefinition, SUB_STATUS_PARENTS } from './sub-statuses/sub-status.schema';
export { incidentRoleSchema, incidentRoleDefinition } from './incident-roles/incident-role.schema';
export { incidentRoleTaskSchema, incidentRoleTaskDefinition } from './incident-role-tasks/incident-role-task.schema';
export { actionItemSchema, actionItemDefinition, ACTION_ITEM_KINDS, ACTION_ITEM_PRIORITIES, ACTION_ITEM_STATUSES } from './action-items/action-item.schema';
export { incidentSubStatusSchema, incidentSubStatusDefinition } from './incident-sub-statuses/incident-sub-status.schema';
export { incidentEventServiceDefinition, incidentEventFunctionalityDefinition, EVENT_LINK_STATUSES } from './event-links/event-link.schema';
import { CreateSubStatusesAndIncidentRoles1732300001000 } from './migrations/1732300001000-create-sub-statuses-and-incident-roles';
import { CreateIncidents1732300001200 } from './migrations/1732300001200-create-incidents';
import { CreateIncidentRoleTasks1732300001100 } from './migrations/1732300001100-create-incident-role-tasks';
import { CreateActionItemsAndIncidentSubStatuses1732300001300 } from './migrations/1732300001300-create-action-items-and-incident-sub-statuses';
import { AddIncidentExternalIds1732300001400 } from './migrations/1732300001400-add-incident-external-ids';

import { AddIncidentZendeskTicketIds1732300001500 } from './migrations/1732300001500-add-incident-zendesk-ticket-ids';

export const INCIDENTS_MIGRATIONS = [CreateSubStatusesAndIncidentRoles1732300001000, CreateIncidentRoleTasks1732300001100, CreateIncidents1732300001200, CreateActionItemsAndIncidentSubStatuses1732300001300, AddIncidentExternalIds1732300001400, AddIncidentZendeskTicketIds1732300001500];
export { INCIDENTS_OPENAPI } from './incidents/incident.openapi';
export { INCIDENT_EVENTS, INCIDENT_IMPORT_COMPLETED, type IncidentEventType } from './events';
