import { SetMetadata, type CustomDecorator } from '@nestjs/common';
import type { PermissionAction, PermissionFamily } from './permission-model';

export const REQUIRED_PERMISSION = 'taproot:required-permission';

export interface RequiredPermission {
  family: PermissionFamily;
  action: PermissionAction;
}

/**
 * The permission a route needs; `PermissionGuard` answers 403 when the caller's effective
 * permissions lack it. On a method or a controller class (the method wins).
 */
export const RequirePermission = (family: PermissionFamily, action: PermissionAction): CustomDecorator<string> =>
  SetMetadata(REQUIRED_PERMISSION, { family, action } satisfies RequiredPermission);
