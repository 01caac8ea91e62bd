import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { JsonApiError } from '@taproot/json-api';
import type { PermissionSet } from '../permissions/permission-set';
import type { Principal } from '../principal/principal';

/**
 * Who calls, resolved once per request by the bearer guard (architecture rule 5a): the principal
 * and its effective permissions. Controllers, handlers and ports receive it; nothing resolves
 * permissions again.
 */
export interface Caller extends Principal {
  readonly permissions: PermissionSet;
}

export interface CallerRequest {
  caller?: Caller;
}

/** The request's caller, as the bearer guard resolved it. */
export const CurrentCaller = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  const caller = context.switchToHttp().getRequest<CallerRequest>().caller;
  if (!caller) throw JsonApiError.of(401, 'Unauthorized', 'The request is not authenticated', 'UNAUTHORIZED');
  return caller;
});
