import { IncidentChangeCommand } from '../incident-command';

/** `PUT /v1/incidents/{id}/detach_from_parent`: a sub-incident stands alone again (422 without a parent). */
export class DetachIncidentFromParentCommand extends IncidentChangeCommand {}
