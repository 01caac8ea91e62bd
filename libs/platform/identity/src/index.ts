export * from './principal/principal';
export * from './principal/bearer-auth.guard';
export * from './api-keys/api-key-token';
export * from './api-keys/api-key-verifier';
export * from './bootstrap/bootstrap-organization';
export * from './identity.module';
import { CreateIdentity1732300000100 } from './migrations/1732300000100-create-identity';

export const IDENTITY_MIGRATIONS = [CreateIdentity1732300000100];
