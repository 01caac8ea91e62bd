import { Injectable, Optional, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Caller } from '../caller/caller';
import { Reflector } from '@nestjs/core';
import { JsonApiError } from '@taproot/json-api';
import type { Principal } from '../principal/principal';
import { actionsOn, can, type PermissionSet } from './permission-set';
import { REQUIRED_PERMISSION, type RequiredPermission } from './require-permission';
import { TEAM_OWNED, TeamOwnershipChecker, type OwnershipRequest, type TeamOwnedRoute } from './team-ownership';

interface GuardedRequest extends OwnershipRequest {
  caller?: Caller;
}

function callerOf(principal: Principal | undefined): string {
  if (!principal) return 'An unauthenticated caller';
  if (principal.kind === 'oauth') return 'This OAuth token';
  return `This ${principal.kind} API key`;
}

export function forbidden(required: RequiredPermission, principal: Principal | undefined, permissions: PermissionSet): JsonApiError {
  const granted = actionsOn(permissions, required.family);
  const has = granted === 'all' || granted.length === 0 ? 'nothing' : granted.join(', ');
  const via = principal?.kind === 'oauth' ? 'its role and scopes grant' : 'its role grants';
  return JsonApiError.of(
    403,
    'Forbidden',
    `${callerOf(principal)} may not ${required.action} ${required.family}: ${via} ${has} on ${required.family}`,
    'PERMISSION_DENIED',
  );
}

function notOwned(required: RequiredPermission, route: TeamOwnedRoute): JsonApiError {
  const rule =
    'isTeam' in route
      ? 'it administers its own team only'
      : `it changes only ${required.family} whose ${route.teamsColumn} include its team, and must keep its team there`;
  return JsonApiError.of(403, 'Forbidden', `This team API key may not ${required.action} this record: ${rule}`, 'NOT_OWNED_BY_TEAM');
}

/**
 * Answers 403 (errors list) when a route's `@RequirePermission` is not among the caller's
 * effective permissions. Runs after authentication; routes without the metadata pass. A team
 * key may also change what its team owns on routes marked `@OwnedByTeam`.
 */
@Injectable()
export class PermissionGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Optional() private readonly ownership?: TeamOwnershipChecker,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const required = this.reflector.getAllAndOverride<RequiredPermission | undefined>(REQUIRED_PERMISSION, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!required) return true;
    const request = context.switchToHttp().getRequest<GuardedRequest>();
    const caller = request.caller;
    // A public route that asks for a permission is a mistake: refuse rather than let it through.
    if (!caller) throw forbidden(required, undefined, { unrestricted: false, grants: new Map() });
    if (can(caller.permissions, required.family, required.action)) return true;
    const owned = this.reflector.get<TeamOwnedRoute | undefined>(TEAM_OWNED, context.getHandler());
    if (owned && this.ownership && caller.kind === 'team' && caller.teamId) {
      if (await this.ownership.owns(caller.organizationId, caller.teamId, owned, request)) return true;
      throw notOwned(required, owned);
    }
    throw forbidden(required, caller, caller.permissions);
  }
}
