import { registerEventContract } from '@taproot/messaging';
import { registerSnapshotEvents, snapshotContract } from '@taproot/resources';
import type { ContextDescriptor } from '@taproot/runtime';
import { API_KEY_EVENTS } from './api-keys/api-key-commands';
import { AUDIT_LOG_CREATED } from './audits/audit-log.projection';
import { apiKeySchema } from './api-keys/api-key.schema';
import { auditSchema } from './audits/audit.schema';
import { CONTACT_METHOD_RESOURCES } from './contact-methods.module';
import { EMAIL_ADDRESS_EVENTS, emailAddressSchema } from './email-addresses/email-address.schema';
import { IdentityModule } from './identity.module';
import { IDENTITY_OPENAPI } from './identity.openapi';
import { INCIDENT_PERMISSION_SET_RESOURCES } from './incident-permission-sets/incident-permission-set.schema';
import { IDENTITY_MIGRATIONS } from './migrations';
import { oauthApplicationSchema } from './oauth/applications/application.schema';
import { OAUTH_APPLICATION_EVENTS } from './oauth/applications/applications';
import { onCallRoleSchema, roleSchema } from './roles/role.schema';
import { teamSchema } from './teams/team.schema';
import { userSchema } from './users/user.schema';
import { IDENTITY_ERRORS } from './errors';
import { SCIM_INBOUND } from './scim/scim-inbound';

export const IDENTITY_CONTEXT: ContextDescriptor = {
  name: 'identity',
  module: IdentityModule,
  migrations: IDENTITY_MIGRATIONS,
  resources: [roleSchema, onCallRoleSchema, apiKeySchema, oauthApplicationSchema, userSchema, teamSchema, auditSchema, ...CONTACT_METHOD_RESOURCES.map((d) => d.schema), ...INCIDENT_PERMISSION_SET_RESOURCES.map((d) => d.schema)],
  openapi: IDENTITY_OPENAPI,
  errors: IDENTITY_ERRORS,
  inbound: SCIM_INBOUND,
  registerEventContracts() {
    for (const schema of [roleSchema, onCallRoleSchema, userSchema, teamSchema, ...CONTACT_METHOD_RESOURCES.map((d) => d.schema), ...INCIDENT_PERMISSION_SET_RESOURCES.map((d) => d.schema)]) {
      registerSnapshotEvents(schema, schema === emailAddressSchema ? [EMAIL_ADDRESS_EVENTS.verificationRequested] : []);
    }
    registerSnapshotEvents(apiKeySchema, [API_KEY_EVENTS.rotated]);
    registerSnapshotEvents(oauthApplicationSchema, [OAUTH_APPLICATION_EVENTS.rotated]);
    // Each audit row is announced for outgoing webhooks: the row as GET /v1/audits shows it.
    registerEventContract(AUDIT_LOG_CREATED, 1, snapshotContract(auditSchema));
  },
};
