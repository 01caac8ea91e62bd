import { CreateIdentity1732300000100 } from './1732300000100-create-identity';
import { CreateRateLimitWindows1732300000300 } from './1732300000300-create-rate-limit-windows';
import { ApiKeysLifecycle1732300000400 } from './1732300000400-api-keys-lifecycle';
import { Roles1732300000500 } from './1732300000500-roles';
import { UsersAndTeams1732300000600 } from './1732300000600-users-and-teams';
import { CreateAudits1732300000700 } from './1732300000700-audits';
import { OrganizationRateLimits1732300000800 } from './1732300000800-organization-rate-limits';
import { OAuth1732300003000 } from './1732300003000-oauth';
import { RateLimitWindowSizes1732300003200 } from './1732300003200-rate-limit-window-sizes';
import { OAuthApplicationsView1732300003300 } from './1732300003300-oauth-applications-view';
import { MembersPermissionsWithoutCreate1732300003400 } from './1732300003400-members-permissions-without-create';
import { AuditReferenceItemTypes1732300003500 } from './1732300003500-audit-reference-item-types';
import { Scim1732300003600 } from './1732300003600-scim';
import { ContactMethods1732300007500 } from './1732300007500-contact-methods';
import { CreateIncidentPermissionSets1732300009900 } from './1732300009900-create-incident-permission-sets';

/** The identity context's migrations, in order. */
export const IDENTITY_MIGRATIONS = [
  CreateIdentity1732300000100,
  CreateRateLimitWindows1732300000300,
  ApiKeysLifecycle1732300000400,
  Roles1732300000500,
  UsersAndTeams1732300000600,
  CreateAudits1732300000700,
  OrganizationRateLimits1732300000800,
  OAuth1732300003000,
  RateLimitWindowSizes1732300003200,
  OAuthApplicationsView1732300003300,
  MembersPermissionsWithoutCreate1732300003400,
  AuditReferenceItemTypes1732300003500,
  Scim1732300003600,
  ContactMethods1732300007500,
  CreateIncidentPermissionSets1732300009900,
];
