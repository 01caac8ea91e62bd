import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { changeRole } from '../../incident-changes';
import { IncidentChangeHandler } from '../incident-write';
import { UnassignIncidentRoleCommand } from './unassign-incident-role.command';

@CommandHandler(UnassignIncidentRoleCommand)
export class UnassignIncidentRoleHandler extends IncidentChangeHandler {
  execute(c: UnassignIncidentRoleCommand): Promise<ResourceObject> {
    return this.change(c, (plan) => changeRole(plan, false, c.incidentRoleId, c.assigneeId));
  }
}
