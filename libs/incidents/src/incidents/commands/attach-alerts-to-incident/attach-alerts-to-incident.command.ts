import type { IncidentAccess } from '../../incident-access';
import { IncidentChangeCommand } from '../incident-command';

/** `POST /v1/incidents/{id}/alerts`: alerts of the organization are attached to the incident. */
export class AttachAlertsToIncidentCommand extends IncidentChangeCommand {
  constructor(
    access: IncidentAccess,
    id: string,
    readonly alertIds: string[],
  ) {
    super(access, id);
  }
}
