import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { move } from '../../incident-changes';
import { IncidentChangeHandler } from '../incident-write';
import { RestartIncidentCommand } from './restart-incident.command';

@CommandHandler(RestartIncidentCommand)
export class RestartIncidentHandler extends IncidentChangeHandler {
  execute(c: RestartIncidentCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => move(plan, 'restart'));
  }
}
