import { IncidentSubscribersCommand } from '../incident-command';

/** `POST /v1/incidents/{id}/add_subscribers`: users subscribe to the incident. */
export class AddIncidentSubscribersCommand extends IncidentSubscribersCommand {}
