export { oauthApplicationSchema, newOAuthApplicationSchema, APPLICATION_GRANT_TYPES } from './application.schema';
export {
  OAUTH_APPLICATION_EVENTS,
  createClientCredentialsApplication,
  loadApplicationForUpdate,
  organizationExists,
  parseApplicationScope,
  revokeApplication,
  rotateApplicationSecret,
  updateApplication,
  type ApplicationActor,
  type ApplicationResult,
} from './applications';
export { OAUTH_APPLICATIONS_OPENAPI } from './application.openapi';
