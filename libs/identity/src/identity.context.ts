import type { ContextDescriptor } from '@taproot/runtime';
import { apiKeySchema } from './api-keys/api-key.schema';
import { auditSchema } from './audits/audit.schema';
import { IdentityModule } from './identity.module';
import { IDENTITY_OPENAPI } from './identity.openapi';
import { IDENTITY_MIGRATIONS } from './migrations';
import { oauthApplicationSchema } from './oauth/applications/application.schema';
import { onCallRoleSchema, roleSchema } from './roles/role.schema';
import { teamSchema } from './teams/team.schema';
import { userSchema } from './users/user.schema';

export const IDENTITY_CONTEXT: ContextDescriptor = {
  name: 'identity',
  module: IdentityModule,
  migrations: IDENTITY_MIGRATIONS,
  resources: [roleSchema, onCallRoleSchema, apiKeySchema, oauthApplicationSchema, userSchema, teamSchema, auditSchema],
  openapi: IDENTITY_OPENAPI,
};
