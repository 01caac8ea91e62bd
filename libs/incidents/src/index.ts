export { IncidentsModule, INCIDENTS_RESOURCES } from './incidents.module';
export * from './incidents/incident.state';
export { subStatusSchema, subStatusDefinition, SUB_STATUS_PARENTS } from './sub-statuses/sub-status.schema';
export { incidentRoleSchema, incidentRoleDefinition } from './incident-roles/incident-role.schema';
import { CreateSubStatusesAndIncidentRoles1732300001000 } from './migrations/1732300001000-create-sub-statuses-and-incident-roles';

export const INCIDENTS_MIGRATIONS = [CreateSubStatusesAndIncidentRoles1732300001000];
