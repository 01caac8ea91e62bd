export { IncidentsModule, INCIDENTS_RESOURCES } from './incidents.module';
export * from './incidents/incident.state';
export { subStatusSchema, subStatusDefinition, SUB_STATUS_PARENTS } from './sub-statuses/sub-status.schema';
export { incidentRoleSchema, incidentRoleDefinition } from './incident-roles/incident-role.schema';
export { incidentRoleTaskSchema, incidentRoleTaskDefinition } from './incident-role-tasks/incident-role-task.schema';
import { CreateSubStatusesAndIncidentRoles1732300001000 } from './migrations/1732300001000-create-sub-statuses-and-incident-roles';
import { CreateIncidents1732300001200 } from './migrations/1732300001200-create-incidents';
import { CreateIncidentRoleTasks1732300001100 } from './migrations/1732300001100-create-incident-role-tasks';

export const INCIDENTS_MIGRATIONS = [CreateSubStatusesAndIncidentRoles1732300001000, CreateIncidentRoleTasks1732300001100, CreateIncidents1732300001200];
export { INCIDENTS_OPENAPI } from './incidents/incident.openapi';
