import { IncidentSubscribersCommand } from '../incident-command';

/** `DELETE /v1/incidents/{id}/remove_subscribers`: users are unsubscribed from the incident. */
export class RemoveIncidentSubscribersCommand extends IncidentSubscribersCommand {}
