import { CommandHandler } from '@nestjs/cqrs';
import { JsonApiError, type ResourceObject } from '@taproot/json-api';
import type { EventActor } from '@taproot/messaging';
import { ResourceWriteHandler, ResourceWriter, snapshotObject, type ResourceDefinition, type Row, type WriteContext, type WriteResult } from '@taproot/resources';
import { TEAM_INCLUDES } from '../includes';
import { teamSchema } from './team.schema';
import { IdentityErrorCode } from '../errors';

/**
 * Membership: every id must be a user of the organization (422 naming the id); admins are
 * members too, so an admin missing from `user_ids` is added to it. Null means nobody.
 */
async function withMembership(ctx: WriteContext, current: Row | null, attributes: Row): Promise<Row> {
  if (!('user_ids' in attributes) && !('admin_ids' in attributes)) return attributes;
  const wanted = (name: 'user_ids' | 'admin_ids'): number[] =>
    name in attributes ? ((attributes[name] as number[] | null) ?? []) : ((current?.[name] as number[] | undefined) ?? []);
  const users = wanted('user_ids');
  const admins = wanted('admin_ids');
  const all = [...new Set([...users, ...admins])];
  const known = new Set<number>(
    all.length ? (await ctx.manager.query('SELECT id FROM users WHERE organization_id = $1 AND id = ANY($2::int[])', [ctx.organizationId, all])).map((r: { id: number }) => r.id) : [],
  );
  const issues: { attribute: string; detail: string; code: string }[] = [];
  for (const name of ['user_ids', 'admin_ids'] as const) {
    if (!(name in attributes)) continue;
    wanted(name).forEach((id, position) => {
      if (!known.has(id)) issues.push({ attribute: `${name}/${position}`, detail: `${name}[${position}]: user ${id} is not a user of this organization`, code: IdentityErrorCode.UnknownUser });
    });
  }
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
  return { ...attributes, user_ids: all, admin_ids: [...new Set(admins)] };
}

/** Teams: the write table `groups`, events on `taproot.identity`, read from `groups_read`. */
export const teamDefinition: ResourceDefinition = {
  schema: teamSchema,
  context: 'identity',
  table: 'groups',
  permission: { family: 'groups' },
  includes: TEAM_INCLUDES,
  rules: {
    beforeCreate: (attributes, ctx) => withMembership(ctx, null, attributes),
    beforeUpdate: (current, changes, ctx) => withMembership(ctx, current, changes),
  },
};

/** Another team with the same `external_id` is the client's error (422 on `external_id`). */
async function externalIdFree(attributes: Row, write: () => Promise<WriteResult>): Promise<WriteResult> {
  try {
    return await write();
  } catch (error) {
    const e = error as { driverError?: { constraint?: string }; constraint?: string };
    if ((e.driverError?.constraint ?? e.constraint) === 'groups_external_id') {
      throw JsonApiError.invalidAttributes([{ attribute: 'external_id', detail: `external_id ${JSON.stringify(attributes.external_id)} is already used by another team`, code: IdentityErrorCode.Taken }]);
    }
    throw error;
  }
}

export class CreateTeamCommand {
  readonly definition = teamDefinition;
  constructor(
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly attributes: Row,
  ) {}
}

export class ChangeTeamCommand {
  readonly definition = teamDefinition;
  constructor(
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly id: string,
    readonly attributes: Row,
  ) {}
}

export class DeleteTeamCommand {
  readonly definition = teamDefinition;
  constructor(
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly id: string,
  ) {}
}

@CommandHandler(CreateTeamCommand)
export class CreateTeamHandler extends ResourceWriteHandler {
  execute(c: CreateTeamCommand): Promise<ResourceObject> {
    return this.write(c, async (writer, ctx, keep) => snapshotObject(teamSchema, keep(await externalIdFree(c.attributes, () => writer.create(ctx, c.attributes)))));
  }
}

@CommandHandler(ChangeTeamCommand)
export class ChangeTeamHandler extends ResourceWriteHandler {
  execute(c: ChangeTeamCommand): Promise<ResourceObject> {
    return this.write(c, async (writer, ctx, keep) => snapshotObject(teamSchema, keep(await externalIdFree(c.attributes, () => writer.update(ctx, c.id, c.attributes)))));
  }
}

@CommandHandler(DeleteTeamCommand)
export class DeleteTeamHandler extends ResourceWriteHandler {
  execute(c: DeleteTeamCommand): Promise<ResourceObject> {
    return this.write(c, async (writer, ctx, keep) => snapshotObject(teamSchema, keep(await writer.delete(ctx, c.id))));
  }
}

const teamWriter = new ResourceWriter(teamDefinition);

/** Takes a user off every team it is on (members and admins): each team changed is an update with its event. */
export async function leaveTeams(ctx: WriteContext, userId: number): Promise<WriteResult[]> {
  const teams: Row[] = await ctx.manager.query(
    'SELECT id, user_ids, admin_ids FROM groups WHERE organization_id = $1 AND ($2 = ANY(user_ids) OR $2 = ANY(admin_ids)) ORDER BY created_at, id FOR UPDATE',
    [ctx.organizationId, userId],
  );
  const without = (ids: unknown) => (ids as number[]).filter((id) => id !== userId);
  const changed: WriteResult[] = [];
  for (const team of teams) changed.push(await teamWriter.update(ctx, String(team.id), { user_ids: without(team.user_ids), admin_ids: without(team.admin_ids) }));
  return changed;
}

export const TEAM_HANDLERS = [CreateTeamHandler, ChangeTeamHandler, DeleteTeamHandler];
