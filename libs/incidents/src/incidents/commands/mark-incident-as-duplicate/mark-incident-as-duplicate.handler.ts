import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { setDuplicate } from '../../incident-changes';
import { IncidentChangeHandler } from '../incident-write';
import { MarkIncidentAsDuplicateCommand } from './mark-incident-as-duplicate.command';

@CommandHandler(MarkIncidentAsDuplicateCommand)
export class MarkIncidentAsDuplicateHandler extends IncidentChangeHandler {
  execute(c: MarkIncidentAsDuplicateCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => setDuplicate(plan, c.originalId, { resolutionMessage: c.resolutionMessage }));
  }
}
