import { IncidentChangeCommand } from '../incident-command';

/** `PUT /v1/incidents/{id}/unmark_as_duplicate`: the incident no longer duplicates another (422 when it does not). */
export class UnmarkIncidentAsDuplicateCommand extends IncidentChangeCommand {}
