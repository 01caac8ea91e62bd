import { IncidentRoleCommand } from '../incident-command';

/** `POST /v1/incidents/{id}/assign_role_to_user`: a user takes an incident role on the incident. */
export class AssignIncidentRoleCommand extends IncidentRoleCommand {}
