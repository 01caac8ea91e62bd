import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { move } from '../../incident-changes';
import { IncidentChangeHandler } from '../incident-write';
import { TriageIncidentCommand } from './triage-incident.command';

@CommandHandler(TriageIncidentCommand)
export class TriageIncidentHandler extends IncidentChangeHandler {
  execute(c: TriageIncidentCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => move(plan, 'in_triage'));
  }
}
