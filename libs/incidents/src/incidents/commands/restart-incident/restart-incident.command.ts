import { IncidentChangeCommand } from '../incident-command';

/** `PUT /v1/incidents/{id}/restart`: a finished incident starts again. */
export class RestartIncidentCommand extends IncidentChangeCommand {}
