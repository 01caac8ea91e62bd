import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { setDuplicate } from '../../incident-changes';
import { IncidentChangeHandler } from '../incident-write';
import { UnmarkIncidentAsDuplicateCommand } from './unmark-incident-as-duplicate.command';

@CommandHandler(UnmarkIncidentAsDuplicateCommand)
export class UnmarkIncidentAsDuplicateHandler extends IncidentChangeHandler {
  execute(c: UnmarkIncidentAsDuplicateCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => setDuplicate(plan, null, { strict: true }));
  }
}
