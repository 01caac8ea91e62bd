export { signingKeysOf, startAuth, type RunningAuth } from './start-auth';
export { OIDC_PROVIDER } from './oidc/provider.token';
