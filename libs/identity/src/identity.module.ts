import { Module } from '@nestjs/common';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AuditsModule } from './audits/audits.module';
import { ContactMethodsModule } from './contact-methods.module';
import { IncidentPermissionSetsModule } from './incident-permission-sets/incident-permission-sets.module';
import { OAuthApplicationsModule } from './oauth/applications/applications.module';
import { RolesModule } from './roles/roles.module';
import { ScimModule } from './scim/scim.module';
import { TeamsModule } from './teams/teams.module';
import { UsersModule } from './users/users.module';

/**
 * The identity context: users (and their contact methods and notification rules), teams, roles (and incident permission sets), API keys, OAuth applications, the audit log and SCIM provisioning.
 * Who is calling and what they may do is `@taproot/auth`'s `AuthenticationModule`.
 */
@Module({ imports: [ApiKeysModule, UsersModule, TeamsModule, AuditsModule, OAuthApplicationsModule, RolesModule, IncidentPermissionSetsModule, ScimModule, ContactMethodsModule] })
export class IdentityModule {}
