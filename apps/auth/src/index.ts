/// <reference path="./oidc/oidc-provider.d.ts" />
// The ambient types of oidc-provider (it ships none) travel with the app to its importers (tools).
export { signingKeysOf, startAuth, type RunningAuth } from './start-auth';
export { OIDC_PROVIDER } from './oidc/provider.token';
