import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { setParent } from '../../incident-changes';
import { IncidentChangeHandler } from '../incident-write';
import { DetachIncidentFromParentCommand } from './detach-incident-from-parent.command';

@CommandHandler(DetachIncidentFromParentCommand)
export class DetachIncidentFromParentHandler extends IncidentChangeHandler {
  execute(c: DetachIncidentFromParentCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => setParent(plan, null, true));
  }
}
