import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { changeSubscribers } from '../../incident-changes';
import { IncidentChangeHandler } from '../incident-write';
import { RemoveIncidentSubscribersCommand } from './remove-incident-subscribers.command';

@CommandHandler(RemoveIncidentSubscribersCommand)
export class RemoveIncidentSubscribersHandler extends IncidentChangeHandler {
  execute(c: RemoveIncidentSubscribersCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => changeSubscribers(plan, false, c.userIds, c.withoutPrivateAccessRemoved));
  }
}
