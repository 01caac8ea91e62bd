import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { move } from '../../incident-changes';
import { IncidentChangeHandler } from '../incident-write';
import { CancelIncidentCommand } from './cancel-incident.command';

@CommandHandler(CancelIncidentCommand)
export class CancelIncidentHandler extends IncidentChangeHandler {
  execute(c: CancelIncidentCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => move(plan, 'cancel', { message: ['cancellation_message', c.cancellationMessage] }));
  }
}
