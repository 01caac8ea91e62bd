export * from './principal/principal';
export * from './principal/bearer-auth.guard';
export * from './api-keys/api-key-token';
export * from './api-keys/api-key-verifier';
export * from './bootstrap/bootstrap-organization';
export * from './identity.module';
export * from './rate-limits/rate-limiter';
export * from './rate-limits/rate-limit.guard';
import { CreateIdentity1732300000100 } from './migrations/1732300000100-create-identity';
import { CreateRateLimitWindows1732300000300 } from './migrations/1732300000300-create-rate-limit-windows';

export const IDENTITY_MIGRATIONS = [CreateIdentity1732300000100, CreateRateLimitWindows1732300000300];
