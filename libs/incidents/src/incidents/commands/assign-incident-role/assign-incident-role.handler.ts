import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { changeRole } from '../../incident-changes';
import { IncidentChangeHandler } from '../incident-write';
import { AssignIncidentRoleCommand } from './assign-incident-role.command';

@CommandHandler(AssignIncidentRoleCommand)
export class AssignIncidentRoleHandler extends IncidentChangeHandler {
  execute(c: AssignIncidentRoleCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => changeRole(plan, true, c.incidentRoleId, c.assigneeId));
  }
}
