import { systemClock, type Clock } from '@taproot/config';
import type { ResourceObject } from '@taproot/json-api';
import { InProcessEventBus, ProjectionRunner, UnitOfWork, type EventActor } from '@taproot/messaging';
import { ResourceListProjection } from '@taproot/resources';
import type { DataSource } from 'typeorm';
import { IdentityError, IdentityErrorCode } from '../errors';
import { ROLE_RESOURCES } from '../roles/role-definitions';
import { teamDefinition } from '../teams/team-commands';
import { AddUserCommand, AddUserHandler, DeleteUserCommand, DeleteUserHandler, memberRoles } from './user-commands';

/** What the operator's commands are recorded as: the system acts (as for `taproot app`). */
const OPERATOR: EventActor = { kind: 'system', id: null };

export interface OrganizationMember {
  user_id: number;
  email: string;
  name: string | null;
  role: string | null;
}

/**
 * The identity context's user commands outside the api (`taproot user`): the same handlers, in a
 * unit of work that writes identity's read models inline as the api's modules do (a removed user
 * leaves its teams in `groups_read` too). Nothing relays here: the events wait in the outbox for
 * the api's relay, which carries them to the audit log.
 */
export class OperatorUsers {
  private readonly unitOfWork: UnitOfWork;

  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock = systemClock,
  ) {
    const projections = new ProjectionRunner(dataSource, new InProcessEventBus());
    for (const definition of [teamDefinition, ...ROLE_RESOURCES]) projections.inline(new ResourceListProjection(definition));
    this.unitOfWork = new UnitOfWork(dataSource, null, projections);
  }

  /** `name` is split at its first space into first and last name (the full name reads as given). */
  async add(organizationId: string, input: { email: string; name: string | null; role: string | null }): Promise<OrganizationMember> {
    const [first, ...rest] = (input.name ?? '').split(' ');
    const roles = await memberRoles(this.dataSource, organizationId, input.role);
    const attributes = { email: input.email, first_name: first || null, last_name: rest.join(' ') || null };
    const user = await new AddUserHandler(this.unitOfWork, this.clock).execute(new AddUserCommand(organizationId, OPERATOR, attributes, roles));
    const [member] = await this.members(organizationId, Number(user.id));
    return member;
  }

  /** By id or e-mail; the organization's last owner is refused (409 `LAST_OWNER`). */
  async remove(organizationId: string, user: { id: string } | { email: string }): Promise<ResourceObject> {
    let id: string;
    if ('id' in user) {
      id = user.id;
    } else {
      const [row] = await this.dataSource.query('SELECT id FROM users WHERE organization_id = $1 AND lower(email) = lower($2)', [organizationId, user.email]);
      if (!row) throw new IdentityError(IdentityErrorCode.UnknownUser, `No user with e-mail ${user.email} in organization ${organizationId}`);
      id = String(row.id);
    }
    return new DeleteUserHandler(this.unitOfWork, this.clock).execute(new DeleteUserCommand(organizationId, OPERATOR, id));
  }

  /** Everyone in the organization, oldest first, with the name of their incident response role. */
  list(organizationId: string): Promise<OrganizationMember[]> {
    return this.members(organizationId, null);
  }

  private members(organizationId: string, userId: number | null): Promise<OrganizationMember[]> {
    return this.dataSource.query(
      `SELECT v.id AS user_id, v.email, v.full_name AS name, r.name AS role
         FROM users_view v JOIN users u ON u.id = v.id LEFT JOIN roles r ON r.id = u.role_id
        WHERE v.organization_id = $1 AND ($2::int IS NULL OR v.id = $2) ORDER BY v.created_at, v.id`,
      [organizationId, userId],
    );
  }
}
