import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Injectable,
  Param,
  Patch,
  Post,
  Put,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type NestInterceptor,
  type PipeTransform,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { NO_ACCESS, Public } from '@taproot/auth';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import type { EventActor } from '@taproot/messaging';
import { patchBodyValidation, scimPatch, type ScimPatch, type ScimResource as PatchableResource } from 'scim-patch';
import { DataSource } from 'typeorm';
import { ChangeTeamCommand, CreateTeamCommand, DeleteTeamCommand } from '../teams/team-commands';
import { AddUserCommand, ChangeUserCommand, DeleteUserCommand, memberRoles } from '../users/user-commands';
import { ScimError, ScimExceptionFilter, SCIM_MEDIA_TYPE } from './scim-errors';
import { listOf, resourceTypes, schemas, serviceProviderConfig } from './scim-discovery';
import { findScim, groupInput, listScim, SCIM_TABLES, userInput, type ScimResource, type ScimScope } from './scim-resources';
import { SCIM_BASE_PATH, verifyScimToken, type ScimClient } from './scim-token';

interface ScimRequest {
  headers: Record<string, string | string[] | undefined>;
  scim?: ScimClient;
}
interface Reply {
  header(name: string, value: string): Reply;
}

/** The organization's SCIM token (`Authorization: Bearer`), or 401; API keys and OAuth tokens are not SCIM tokens. */
@Injectable()
export class ScimTokenGuard implements CanActivate {
  constructor(private readonly dataSource: DataSource) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ScimRequest>();
    const match = /^Bearer\s+(\S+)\s*$/i.exec(String(request.headers.authorization ?? ''));
    if (!match) throw new ScimError(401, 'The Authorization header must be "Bearer <SCIM token>"');
    const client = await verifyScimToken(this.dataSource, match[1]);
    if (!client) throw new ScimError(401, 'The SCIM token is unknown or was replaced by a newer one');
    request.scim = client;
    return true;
  }
}

/** Every SCIM answer is `application/scim+json` (RFC 7644 §3.1). */
@Injectable()
export class ScimMediaType implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    context.switchToHttp().getResponse<Reply>().header('content-type', SCIM_MEDIA_TYPE);
    return next.handle();
  }
}

const clientOf = (request: ScimRequest): ScimClient => request.scim!;
/** Changes made over SCIM are the system's, acting for the identity provider's token (as alert sources do). */
const actorOf = (client: ScimClient): EventActor => ({ kind: 'system', id: `scim_token:${client.tokenId}` });

type Query = Record<string, string | undefined>;
type Endpoint = keyof typeof SCIM_TABLES;

/** `Users` or `Groups`; any other path under the base is a SCIM 404. */
@Injectable()
class ScimEndpoint implements PipeTransform<string, Endpoint> {
  transform(value: string): Endpoint {
    if (value !== 'Users' && value !== 'Groups') throw new ScimError(404, `No SCIM endpoint ${SCIM_BASE_PATH}/${value}`);
    return value;
  }
}

/**
 * SCIM 2.0 (RFC 7643/7644) for identity providers: Users are the organization's users, Groups its
 * teams. Not JSON:API: the api's bearer guard is skipped (`@Public`) for the SCIM token's own, and
 * every change goes through the identity context's commands, so its events reach the audit log.
 */
@Public()
@Controller(SCIM_BASE_PATH.slice(1))
@UseGuards(ScimTokenGuard)
@UseFilters(ScimExceptionFilter)
@UseInterceptors(ScimMediaType)
export class ScimController {
  private readonly base: string;

  constructor(
    private readonly commands: CommandBus,
    private readonly dataSource: DataSource,
    @Inject(TAPROOT_CONFIG) config: TaprootConfig,
  ) {
    this.base = `${config.publicUrl}${SCIM_BASE_PATH}`;
  }

  private scope(request: ScimRequest): ScimScope {
    return { db: this.dataSource, organizationId: clientOf(request).organizationId, base: this.base };
  }

  @Get('ServiceProviderConfig')
  serviceProviderConfig() {
    return serviceProviderConfig(this.base);
  }

  @Get('Schemas')
  schemas() {
    return listOf(schemas(this.base));
  }

  @Get('Schemas/:id')
  schema(@Param('id') id: string) {
    return this.one(schemas(this.base), id, 'Schema');
  }

  @Get('ResourceTypes')
  resourceTypes() {
    return listOf(resourceTypes(this.base));
  }

  @Get('ResourceTypes/:id')
  resourceType(@Param('id') id: string) {
    return this.one(resourceTypes(this.base), id, 'ResourceType');
  }

  private one<T extends { id: string }>(all: T[], id: string, kind: string): T {
    const found = all.find((r) => r.id === id);
    if (!found) throw ScimError.notFound(kind, id);
    return found;
  }

  @Get(':endpoint')
  list(@Req() request: ScimRequest, @Param('endpoint', ScimEndpoint) endpoint: Endpoint, @Query() query: Query) {
    return listScim(this.scope(request), endpoint, query);
  }

  @Get(':endpoint/:id')
  async get(@Req() request: ScimRequest, @Param('endpoint', ScimEndpoint) endpoint: Endpoint, @Param('id') id: string) {
    return (await findScim(this.scope(request), endpoint, id)).resource;
  }

  @Post('Users')
  @HttpCode(201)
  async createUser(@Req() request: ScimRequest, @Body() body: unknown, @Res({ passthrough: true }) reply: Reply) {
    const client = clientOf(request);
    const { active, ...attributes } = userInput(body);
    if (!active) throw ScimError.invalidValue('active: a user is created active (a deactivated user is removed from Taproot)');
    // Provisioned people get the organization's everyday role (User); an admin raises it in Taproot.
    const roles = await memberRoles(this.dataSource, client.organizationId, null);
    const user = await this.commands.execute(new AddUserCommand(client.organizationId, actorOf(client), attributes, roles));
    return this.created(request, reply, 'Users', String(user.id));
  }

  @Post('Groups')
  @HttpCode(201)
  async createGroup(@Req() request: ScimRequest, @Body() body: unknown, @Res({ passthrough: true }) reply: Reply) {
    const client = clientOf(request);
    const team = await this.commands.execute(new CreateTeamCommand(client.organizationId, actorOf(client), { ...groupInput(body) }));
    return this.created(request, reply, 'Groups', String(team.id));
  }

  private async created(request: ScimRequest, reply: Reply, endpoint: Endpoint, id: string): Promise<ScimResource> {
    const { resource } = await findScim(this.scope(request), endpoint, id);
    reply.header('location', String((resource.meta as { location: string }).location));
    return resource;
  }

  @Put(':endpoint/:id')
  async replace(@Req() request: ScimRequest, @Param('endpoint', ScimEndpoint) endpoint: Endpoint, @Param('id') id: string, @Body() body: unknown) {
    const current = await findScim(this.scope(request), endpoint, id);
    return this.store(request, endpoint, current, body);
  }

  /** RFC 7644 §3.5.2: the operations applied to the current resource (scim-patch), then stored as a replacement. */
  @Patch(':endpoint/:id')
  async patch(@Req() request: ScimRequest, @Param('endpoint', ScimEndpoint) endpoint: Endpoint, @Param('id') id: string, @Body() body: unknown) {
    const current = await findScim(this.scope(request), endpoint, id);
    try {
      patchBodyValidation(body as ScimPatch);
    } catch (error) {
      throw new ScimError(400, `The body must be a PatchOp: ${(error as Error).message}`, 'invalidSyntax');
    }
    const patched = scimPatch(structuredClone(current.resource) as unknown as PatchableResource, (body as ScimPatch).Operations);
    return this.store(request, endpoint, current, patched);
  }

  /**
   * The new state of a resource through the identity commands. `active: false` removes the user
   * (Taproot has no suspended users: README, SCIM); the answer shows it inactive, later reads 404.
   */
  private async store(request: ScimRequest, endpoint: Endpoint, current: { resource: ScimResource; row: Record<string, unknown> }, body: unknown) {
    const client = clientOf(request);
    const { id } = current.resource;
    if (endpoint === 'Users') {
      const { active, ...attributes } = userInput(body);
      if (!active) {
        await this.commands.execute(new DeleteUserCommand(client.organizationId, actorOf(client), id));
        return { ...current.resource, active: false };
      }
      await this.commands.execute(new ChangeUserCommand(client.organizationId, actorOf(client), NO_ACCESS, id, attributes));
    } else {
      const group = groupInput(body);
      // Team admins are members too: one the identity provider removed stops being an admin.
      const admin_ids = (current.row.admin_ids as number[]).filter((admin) => group.user_ids.includes(admin));
      await this.commands.execute(new ChangeTeamCommand(client.organizationId, actorOf(client), id, { ...group, admin_ids }));
    }
    return (await findScim(this.scope(request), endpoint, id)).resource;
  }

  @Delete(':endpoint/:id')
  @HttpCode(204)
  async remove(@Req() request: ScimRequest, @Param('endpoint', ScimEndpoint) endpoint: Endpoint, @Param('id') id: string): Promise<void> {
    const client = clientOf(request);
    await findScim(this.scope(request), endpoint, id);
    const command = endpoint === 'Users' ? new DeleteUserCommand(client.organizationId, actorOf(client), id) : new DeleteTeamCommand(client.organizationId, actorOf(client), id);
    await this.commands.execute(command);
  }
}
