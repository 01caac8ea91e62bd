import type { IncidentAccess } from '../../incident-access';
import { IncidentChangeCommand } from '../incident-command';

/** `DELETE /v1/incidents/{id}/alerts/{alert_id}`: an attached alert is taken away from the incident. */
export class DetachAlertFromIncidentCommand extends IncidentChangeCommand {
  constructor(
    access: IncidentAccess,
    id: string,
    readonly alertId: string,
  ) {
    super(access, id);
  }
}
