import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { move } from '../../incident-changes';
import { IncidentChangeHandler } from '../incident-write';
import { ResolveIncidentCommand } from './resolve-incident.command';

@CommandHandler(ResolveIncidentCommand)
export class ResolveIncidentHandler extends IncidentChangeHandler {
  execute(c: ResolveIncidentCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => move(plan, 'resolve', { message: ['resolution_message', c.resolutionMessage] }));
  }
}
