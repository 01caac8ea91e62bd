import { Inject, Injectable } from '@nestjs/common';
import { CommandHandler, QueryHandler } from '@nestjs/cqrs';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { JsonApiError, listDocument, toResourceObject, type CollectionDocument, type FlatQuery, type SingleDocument } from '@taproot/json-api';
import { ResourceWriteHandler, type ResourceDefinition, type Snapshot } from '@taproot/resources';
import { DataSource, type EntityManager } from 'typeorm';
import { actorOf, covers, splitScopes, withScopes, type Caller, type Principal } from '@taproot/auth';
import { assertAssignableRoles } from '../../roles/role-assignment';
import { oauthApplicationSchema } from './application.schema';
import {
  createClientCredentialsApplication,
  loadApplicationForUpdate,
  parseApplicationScope,
  revokeApplication,
  rotateApplicationSecret,
  serviceUserRoles,
  updateApplication,
  type ApplicationActor,
  type ApplicationKind,
  type ApplicationResult,
} from './applications';
import { IdentityError, IdentityErrorCode } from '../../errors';

type Row = Record<string, unknown>;

const actorFor = (principal: Principal): ApplicationActor => ({ organizationId: principal.organizationId, actor: actorOf(principal), userId: principal.userId });

/**
 * Nobody hands out more than they hold (as for API keys and user roles): the caller must already
 * have everything a client-credentials application with `scope` would: its service user's roles
 * intersected with the scopes.
 */
async function assertMayGrant(manager: EntityManager, principal: Caller, scope: string): Promise<void> {
  const roles = await assertAssignableRoles(manager, principal.organizationId, await serviceUserRoles(manager, principal.organizationId));
  const granted = withScopes(roles, splitScopes(scope));
  if (!covers(principal.permissions, granted)) {
    throw new IdentityError(IdentityErrorCode.PrivilegeEscalation, 'The application would hold permissions the caller does not have');
  }
}

export class CreateOAuthApplicationCommand {
  constructor(
    readonly principal: Caller,
    /** Validated by `parseResourcePayload(newOAuthApplicationSchema, ..., 'create')`. */
    readonly attributes: Row,
  ) {}
}

export class UpdateOAuthApplicationCommand {
  constructor(
    readonly principal: Caller,
    readonly clientId: string,
    /** `name`, `scope`, validated by `parseResourcePayload(oauthApplicationSchema, ..., 'update')`. */
    readonly attributes: Row,
  ) {}
}

export class RevokeOAuthApplicationCommand {
  constructor(
    readonly principal: Caller,
    readonly clientId: string,
  ) {}
}

export class RotateOAuthApplicationSecretCommand {
  constructor(
    readonly principal: Caller,
    readonly clientId: string,
  ) {}
}

export class ListOAuthApplicationsQuery {
  constructor(
    readonly organizationId: string,
    readonly query: FlatQuery,
  ) {}
}

export class GetOAuthApplicationQuery {
  constructor(
    readonly organizationId: string,
    readonly clientId: string,
  ) {}
}

/** OAuth applications on the one write path; their reads come from a view of the provider's storage. */
const applicationDefinition: ResourceDefinition = { schema: oauthApplicationSchema, context: 'identity', table: 'oauth_applications' };

abstract class ApplicationChangeHandler<C extends { principal: Principal }> extends ResourceWriteHandler {
  /** One transaction: the application's rows and its event in the outbox. */
  execute(command: C): Promise<ApplicationResult> {
    const { principal } = command;
    return this.write({ definition: applicationDefinition, organizationId: principal.organizationId, actor: actorOf(principal) }, async (_writer, ctx, keep) => {
      const result = await this.change(ctx.manager, command, ctx.now);
      keep({ snapshot: result.event.payload as Snapshot, events: [result.event] });
      return result;
    });
  }

  protected abstract change(manager: EntityManager, command: C, now: Date): Promise<ApplicationResult>;
}

@CommandHandler(CreateOAuthApplicationCommand)
export class CreateOAuthApplicationHandler extends ApplicationChangeHandler<CreateOAuthApplicationCommand> {
  protected async change(manager: EntityManager, { principal, attributes }: CreateOAuthApplicationCommand, now: Date) {
    const scope = parseApplicationScope(attributes.scope);
    await assertMayGrant(manager, principal, scope);
    return createClientCredentialsApplication(manager, actorFor(principal), { name: attributes.name as string, scope }, now);
  }
}

@CommandHandler(UpdateOAuthApplicationCommand)
export class UpdateOAuthApplicationHandler extends ApplicationChangeHandler<UpdateOAuthApplicationCommand> {
  protected async change(manager: EntityManager, { principal, clientId, attributes }: UpdateOAuthApplicationCommand, now: Date) {
    const current = await loadApplicationForUpdate(manager, principal.organizationId, clientId);
    const kind = current.kind as ApplicationKind;
    const scope = 'scope' in attributes ? parseApplicationScope(attributes.scope, kind) : undefined;
    // The scope of an application users authorize only bounds what they consent to: their roles still apply.
    if (scope !== undefined && kind === 'client_credentials') await assertMayGrant(manager, principal, scope);
    return updateApplication(manager, actorFor(principal), current, { name: attributes.name as string | undefined, scope }, now);
  }
}

@CommandHandler(RevokeOAuthApplicationCommand)
export class RevokeOAuthApplicationHandler extends ApplicationChangeHandler<RevokeOAuthApplicationCommand> {
  protected async change(manager: EntityManager, { principal, clientId }: RevokeOAuthApplicationCommand, now: Date) {
    const current = await loadApplicationForUpdate(manager, principal.organizationId, clientId);
    return revokeApplication(manager, actorFor(principal), current, now);
  }
}

@CommandHandler(RotateOAuthApplicationSecretCommand)
export class RotateOAuthApplicationSecretHandler extends ApplicationChangeHandler<RotateOAuthApplicationSecretCommand> {
  protected async change(manager: EntityManager, { principal, clientId }: RotateOAuthApplicationSecretCommand, now: Date) {
    const current = await loadApplicationForUpdate(manager, principal.organizationId, clientId);
    return rotateApplicationSecret(manager, actorFor(principal), current, now);
  }
}

/** Reads over `oauth_applications_view`, scoped by the organization. */
@Injectable()
abstract class ApplicationQueryHandler {
  constructor(
    protected readonly dataSource: DataSource,
    @Inject(TAPROOT_CONFIG) protected readonly config: TaprootConfig,
  ) {}
}

@QueryHandler(ListOAuthApplicationsQuery)
export class ListOAuthApplicationsHandler extends ApplicationQueryHandler {
  execute({ organizationId, query }: ListOAuthApplicationsQuery): Promise<CollectionDocument> {
    return listDocument({ db: this.dataSource, schema: oauthApplicationSchema, query, organizationId, cursorSecret: this.config.cursorSecret });
  }
}

@QueryHandler(GetOAuthApplicationQuery)
export class GetOAuthApplicationHandler extends ApplicationQueryHandler {
  async execute({ organizationId, clientId }: GetOAuthApplicationQuery): Promise<SingleDocument> {
    const [row] = await this.dataSource.query('SELECT * FROM oauth_applications_view WHERE id = $1 AND organization_id::text = $2', [clientId, organizationId]);
    if (!row) throw JsonApiError.notFound(oauthApplicationSchema.type, clientId);
    return { data: toResourceObject(oauthApplicationSchema, row) };
  }
}

export const OAUTH_APPLICATION_HANDLERS = [
  CreateOAuthApplicationHandler,
  UpdateOAuthApplicationHandler,
  RevokeOAuthApplicationHandler,
  RotateOAuthApplicationSecretHandler,
  ListOAuthApplicationsHandler,
  GetOAuthApplicationHandler,
];
