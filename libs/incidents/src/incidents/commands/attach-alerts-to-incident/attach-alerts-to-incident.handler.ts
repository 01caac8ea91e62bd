import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { attachAlerts } from '../../incident-alerts';
import { IncidentChangeHandler } from '../incident-write';
import { AttachAlertsToIncidentCommand } from './attach-alerts-to-incident.command';

@CommandHandler(AttachAlertsToIncidentCommand)
export class AttachAlertsToIncidentHandler extends IncidentChangeHandler {
  execute(c: AttachAlertsToIncidentCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => attachAlerts(plan, c.alertIds));
  }
}
