import { Body, Controller, Delete, Get, Param, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { actorOf, CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { parseInclude, parseResourcePayload, withIncludes, type FlatQuery, type ResourceObject } from '@taproot/json-api';
import { ListResourcesQuery } from '@taproot/resources';
import { DataSource } from 'typeorm';
import { ChangeUserCommand, DeleteUserCommand, findUser, userDefinition } from './user-commands';
import { USER_INCLUDES } from '../includes';
import { updateUserSchema, userSchema } from './user.schema';
import { IdentityError, IdentityErrorCode } from '../errors';

/** `/v1/users`: permission family `members` (docs/permissions.md); `/me` needs none. */
@Controller('v1/users')
export class UsersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly dataSource: DataSource,
  ) {}

  @Get()
  @RequirePermission('members', 'read')
  list(@CurrentCaller() principal: Caller, @Query() query: FlatQuery) {
    return this.queries.execute(new ListResourcesQuery(userDefinition, principal.organizationId, query));
  }

  /**
   * Declared before `:id`. Any authenticated caller may read itself; a key that belongs to no
   * user has none (404, docs/permissions.md).
   */
  @Get('me')
  async me(@CurrentCaller() principal: Caller) {
    if (principal.userId === null) {
      throw new IdentityError(IdentityErrorCode.NoCurrentUser, 'This API key does not belong to a user, so there is no current user: use a personal API key or an OAuth token');
    }
    return { data: await findUser(this.dataSource, principal.organizationId, String(principal.userId)) };
  }

  @Get(':id')
  @RequirePermission('members', 'read')
  async get(@CurrentCaller() principal: Caller, @Param('id') id: string, @Query() query: FlatQuery) {
    const include = parseInclude(userSchema, query.include);
    const { organizationId } = principal;
    const { data, included } = await withIncludes({ db: this.dataSource, organizationId }, userSchema, USER_INCLUDES, [await findUser(this.dataSource, organizationId, id)], include);
    return { data: data[0], ...(included ? { included } : {}) };
  }

  @Put(':id')
  @RequirePermission('members', 'update')
  async update(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(updateUserSchema, body, 'update');
    const data: ResourceObject = await this.commands.execute(new ChangeUserCommand(principal.organizationId, actorOf(principal), principal.permissions, id, attributes));
    return { data };
  }

  @Delete(':id')
  @RequirePermission('members', 'delete')
  async remove(@CurrentCaller() principal: Caller, @Param('id') id: string) {
    const data: ResourceObject = await this.commands.execute(new DeleteUserCommand(principal.organizationId, actorOf(principal), id));
    return { data };
  }
}
