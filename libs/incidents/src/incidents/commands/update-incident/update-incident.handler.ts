import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { applyUpdate } from '../../incident-changes';
import { IncidentChangeHandler } from '../incident-write';
import { UpdateIncidentCommand } from './update-incident.command';

@CommandHandler(UpdateIncidentCommand)
export class UpdateIncidentHandler extends IncidentChangeHandler {
  execute(c: UpdateIncidentCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => applyUpdate(plan, c.attributes));
  }
}
