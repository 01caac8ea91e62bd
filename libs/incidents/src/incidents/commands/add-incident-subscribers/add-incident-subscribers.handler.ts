import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { changeSubscribers } from '../../incident-changes';
import { IncidentChangeHandler } from '../incident-write';
import { AddIncidentSubscribersCommand } from './add-incident-subscribers.command';

@CommandHandler(AddIncidentSubscribersCommand)
export class AddIncidentSubscribersHandler extends IncidentChangeHandler {
  execute(c: AddIncidentSubscribersCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => changeSubscribers(plan, true, c.userIds, c.withoutPrivateAccessRemoved));
  }
}
