import { IncidentRoleCommand } from '../incident-command';

/** `DELETE /v1/incidents/{id}/unassign_role_from_user`: a user gives up an incident role on the incident. */
export class UnassignIncidentRoleCommand extends IncidentRoleCommand {}
