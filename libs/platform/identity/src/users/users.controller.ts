import { Body, Controller, Delete, Get, Param, Put, Query } from '@nestjs/common';
import { parseResourcePayload, type FlatQuery } from '@taproot/json-api';
import { RequirePermission } from '../permissions/require-permission';
import { CurrentPrincipal } from '../principal/bearer-auth.guard';
import type { Principal } from '../principal/principal';
import { updateUserSchema } from './user.schema';
import { UsersService } from './users.service';

/** `/v1/users`: permission family `members` (docs/permissions.md); `/me` needs none. */
@Controller('v1/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @RequirePermission('members', 'read')
  list(@CurrentPrincipal() principal: Principal, @Query() query: FlatQuery) {
    return this.users.list(principal.organizationId, query);
  }

  /** Declared before `:id`. Any authenticated caller may read itself. */
  @Get('me')
  me(@CurrentPrincipal() principal: Principal) {
    return this.users.me(principal);
  }

  @Get(':id')
  @RequirePermission('members', 'read')
  get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.users.get(principal.organizationId, id);
  }

  @Put(':id')
  @RequirePermission('members', 'update')
  update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(updateUserSchema, body, 'update');
    return this.users.update(principal, id, attributes);
  }

  @Delete(':id')
  @RequirePermission('members', 'delete')
  remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return this.users.delete(principal, id);
  }
}
