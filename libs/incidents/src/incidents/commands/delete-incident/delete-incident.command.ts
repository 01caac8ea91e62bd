import type { IncidentAccess } from '../../incident-access';
import { IncidentCommand } from '../incident-command';

/** `DELETE /v1/incidents/{id}`: the incident, what is under it, and its links to other incidents. */
export class DeleteIncidentCommand extends IncidentCommand {
  constructor(
    access: IncidentAccess,
    readonly id: string,
  ) {
    super(access);
  }
}
