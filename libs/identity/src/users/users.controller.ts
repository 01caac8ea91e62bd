import { Body, Controller, Delete, Get, Param, Put, Query } from '@nestjs/common';
import { parseResourcePayload, type FlatQuery } from '@taproot/json-api';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { updateUserSchema } from './user.schema';
import { UsersService } from './users.service';

/** `/v1/users`: permission family `members` (docs/permissions.md); `/me` needs none. */
@Controller('v1/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @RequirePermission('members', 'read')
  list(@CurrentCaller() principal: Caller, @Query() query: FlatQuery) {
    return this.users.list(principal.organizationId, query);
  }

  /** Declared before `:id`. Any authenticated caller may read itself. */
  @Get('me')
  me(@CurrentCaller() principal: Caller) {
    return this.users.me(principal);
  }

  @Get(':id')
  @RequirePermission('members', 'read')
  get(@CurrentCaller() principal: Caller, @Param('id') id: string) {
    return this.users.get(principal.organizationId, id);
  }

  @Put(':id')
  @RequirePermission('members', 'update')
  update(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(updateUserSchema, body, 'update');
    return this.users.update(principal, id, attributes);
  }

  @Delete(':id')
  @RequirePermission('members', 'delete')
  remove(@CurrentCaller() principal: Caller, @Param('id') id: string) {
    return this.users.delete(principal, id);
  }
}
