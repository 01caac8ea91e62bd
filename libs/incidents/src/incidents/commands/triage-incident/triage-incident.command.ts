import { IncidentChangeCommand } from '../incident-command';

/** `PUT /v1/incidents/{id}/in_triage`: the incident goes into triage. */
export class TriageIncidentCommand extends IncidentChangeCommand {}
