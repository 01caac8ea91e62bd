import { IncidentsCommand, type IncidentAccess } from '../incident-access';
import { incidentDefinition } from '../incident.schema';

/** What every incident command carries: the incident resource and who acts, with what they may do. */
export abstract class IncidentCommand extends IncidentsCommand {
  constructor(access: IncidentAccess) {
    super(incidentDefinition, access);
  }
}

/** A command that changes one existing incident (by uuid or slug), through `IncidentChangeHandler`. */
export abstract class IncidentChangeCommand extends IncidentCommand {
  constructor(
    access: IncidentAccess,
    readonly id: string,
  ) {
    super(access);
  }
}

/** Who `add_subscribers` / `remove_subscribers` names, and whether users without private access go too. */
export abstract class IncidentSubscribersCommand extends IncidentChangeCommand {
  constructor(
    access: IncidentAccess,
    id: string,
    readonly userIds: readonly string[],
    /** The body's `remove_users_with_no_private_incident_access`. */
    readonly withoutPrivateAccessRemoved: boolean,
  ) {
    super(access, id);
  }
}

/** The incident role and the user of `assign_role_to_user` / `unassign_role_from_user`. */
export abstract class IncidentRoleCommand extends IncidentChangeCommand {
  constructor(
    access: IncidentAccess,
    id: string,
    readonly incidentRoleId: string,
    /** Not `userId`: that name is the acting user of the write (ResourceWriteCommand). */
    readonly assigneeId: string,
  ) {
    super(access, id);
  }
}
