import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { move } from '../../incident-changes';
import { IncidentChangeHandler } from '../incident-write';
import { MitigateIncidentCommand } from './mitigate-incident.command';

@CommandHandler(MitigateIncidentCommand)
export class MitigateIncidentHandler extends IncidentChangeHandler {
  execute(c: MitigateIncidentCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => move(plan, 'mitigate', { message: ['mitigation_message', c.mitigationMessage] }));
  }
}
