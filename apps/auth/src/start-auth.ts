import { JwtAccessTokenVerifier, RateLimiter, statusPageClient } from '@taproot/auth';
import { SigningKeys } from '@taproot/identity';
import { startNestApp, type RunningApp, type Runtime } from '@taproot/runtime';
import type { JWK } from 'jose';
import type Provider from 'oidc-provider';
import { AuthModule } from './auth.module';
import { mountProvider, recordRegistrations } from './oidc/mount';
import { ACCESS_TOKEN_TTL, accessTokenIds, createOidcProvider, ID_TOKEN_TTL, publicJwks } from './oidc/provider';
import { userinfoBeyondOpenId } from './oidc/userinfo';
import { limitRequests } from './rate-limits';

export type RunningAuth = RunningApp & { provider: Provider };

/** The deployment's signing keys (the auth app signs with them; `taproot keys rotate` rotates them). */
export function signingKeysOf(runtime: Pick<Runtime, 'config' | 'dataSource' | 'clock'>): SigningKeys {
  const { config, dataSource, clock } = runtime;
  return new SigningKeys(dataSource, {
    clock,
    encryptionKey: config.oauthKeyEncryptionKey,
    configuredKey: config.oauthSigningKey as JWK | null,
    retiredKeyTtlSeconds: Math.max(ACCESS_TOKEN_TTL, ID_TOKEN_TTL),
  });
}

/** The auth app listens on its own origin (spec: {auth_url} is a different host). */
export async function startAuth(runtime: Runtime, port = runtime.config.authPort): Promise<RunningAuth> {
  const { config, dataSource, clock, logger } = runtime;
  if (config.keyEncryptionKeyIsDefault) {
    logger.warn('OAUTH_KEY_ENCRYPTION_KEY is not set: signing keys are encrypted with a development default. Set it in production.');
  }
  const { keys } = await signingKeysOf(runtime).load();
  const jwtId = accessTokenIds({ keys, issuer: config.authIssuer, clock });
  const audience = config.oauthAudience ?? config.publicUrl;
  const provider = createOidcProvider({
    dataSource,
    clock,
    logger: logger.child({ component: 'oidc-provider' }),
    issuer: config.authIssuer,
    audience,
    keys,
    jwtId,
    refreshGraceSeconds: config.oauthRefreshGraceSeconds,
    cookieSecret: config.oauthKeyEncryptionKey,
    statusPageClient: statusPageClient(config),
  });
  recordRegistrations(provider, dataSource, () => clock.now());
  const registrationLimiter = new RateLimiter(dataSource, clock, 3600);
  // Taproot's own UserInfo answers (oidc/userinfo.ts) verify the token as the API does.
  const tokens = new JwtAccessTokenVerifier(dataSource, { issuer: config.authIssuer, audience, keys: publicJwks(keys), clock });
  const running = await startNestApp(runtime, AuthModule.forRuntime(runtime, provider), {
    name: 'auth',
    port,
    configure: (fastify) => {
      limitRequests(fastify, new RateLimiter(dataSource, clock), config);
      mountProvider(fastify, provider, { registrationLimiter, jwtId, userinfo: userinfoBeyondOpenId(provider, tokens, dataSource) });
    },
  });
  return { ...running, provider };
}
