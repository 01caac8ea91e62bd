import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { detachAlert } from '../../incident-alerts';
import { IncidentChangeHandler } from '../incident-write';
import { DetachAlertFromIncidentCommand } from './detach-alert-from-incident.command';

@CommandHandler(DetachAlertFromIncidentCommand)
export class DetachAlertFromIncidentHandler extends IncidentChangeHandler {
  execute(c: DetachAlertFromIncidentCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => detachAlert(plan, c.alertId));
  }
}
