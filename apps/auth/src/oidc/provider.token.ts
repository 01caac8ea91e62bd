/** Nest injection token of the oidc-provider instance (the interaction pages call it). */
export const OIDC_PROVIDER = Symbol('OIDC_PROVIDER');
