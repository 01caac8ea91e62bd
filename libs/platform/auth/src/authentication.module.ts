import { Global, Logger, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CLOCK, TAPROOT_CONFIG, type Clock, type TaprootConfig } from '@taproot/config';
import { UnitOfWork } from '@taproot/messaging';
import { CallerResolver } from './caller/caller-resolver';
import { DataSource } from 'typeorm';
import { ApiKeyVerifier } from './api-keys/api-key-verifier';
import { ACCESS_TOKEN_VERIFIER, JwtAccessTokenVerifier, noAccessTokens, type AccessTokenVerifier } from './oauth/access-token-verifier';
import { API_KEY_USAGE_OPTIONS, ApiKeyUsageTracker, type ApiKeyUsageOptions } from './api-keys/api-key-usage';
import { BearerAuthGuard } from './principal/bearer-auth.guard';
import { PermissionGuard } from './permissions/permission.guard';
import { PermissionResolver } from './permissions/permission-resolver';
import { TeamOwnershipChecker } from './permissions/team-ownership';
import { RateLimitGuard } from './rate-limits/rate-limit.guard';
import { RateLimiter } from './rate-limits/rate-limiter';
import { AlertCreationLimit, alertCreationLimitProvider } from './rate-limits/alert-creation-limit';

const usageLogger = new Logger('ApiKeyUsageTracker');

/**
 * Authentication, rate limits and permission checks for every route of the app that imports it
 * (opt out with `@Public()`). Global, so contexts inject its exports (the alert-creation limit)
 * without importing the module a second time. Override `API_KEY_USAGE_OPTIONS` to change the
 * `last_used_at` flush interval.
 */
@Global()
@Module({
  providers: [
    { provide: API_KEY_USAGE_OPTIONS, useValue: {} satisfies ApiKeyUsageOptions },
    {
      provide: ApiKeyUsageTracker,
      useFactory: (ds: DataSource, clock: Clock, options: ApiKeyUsageOptions) =>
        new ApiKeyUsageTracker(ds, clock, {
          onError: (error) => usageLogger.warn(`last_used_at flush failed, kept for the next one: ${String(error)}`),
          ...options,
        }),
      inject: [DataSource, CLOCK, API_KEY_USAGE_OPTIONS],
    },
    {
      provide: ApiKeyVerifier,
      useFactory: (ds: DataSource, clock: Clock, usage: ApiKeyUsageTracker) => new ApiKeyVerifier(ds, clock, usage),
      inject: [DataSource, CLOCK, ApiKeyUsageTracker],
    },
    { provide: RateLimiter, useFactory: (ds: DataSource, clock: Clock) => new RateLimiter(ds, clock), inject: [DataSource, CLOCK] },
    alertCreationLimitProvider,
    // Global guards run in this order: who is calling, then how often.
    {
      provide: ACCESS_TOKEN_VERIFIER,
      useFactory: (ds: DataSource, clock: Clock, config: TaprootConfig): AccessTokenVerifier =>
        config.oauthIssuer && config.oauthAudience && config.oauthJwksUrl
          ? new JwtAccessTokenVerifier(ds, { issuer: config.oauthIssuer, audience: config.oauthAudience, keys: new URL(config.oauthJwksUrl), clock })
          : noAccessTokens,
      inject: [DataSource, CLOCK, TAPROOT_CONFIG],
    },
    { provide: PermissionResolver, useFactory: (ds: DataSource) => new PermissionResolver(ds), inject: [DataSource] },
    {
      provide: CallerResolver,
      useFactory: (keys: ApiKeyVerifier, tokens: AccessTokenVerifier, permissions: PermissionResolver, clock: Clock, config: TaprootConfig, uow: UnitOfWork) =>
        new CallerResolver(keys, tokens, permissions, clock, { ttlMs: config.authCacheTtlMs }, uow),
      inject: [ApiKeyVerifier, ACCESS_TOKEN_VERIFIER, PermissionResolver, CLOCK, TAPROOT_CONFIG, UnitOfWork],
    },
    { provide: APP_GUARD, useClass: BearerAuthGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
    // Then what it may do: routes marked `@RequirePermission` answer 403 without it.
    { provide: TeamOwnershipChecker, useFactory: (ds: DataSource) => new TeamOwnershipChecker(ds), inject: [DataSource] },
    { provide: APP_GUARD, useClass: PermissionGuard },
  ],
  exports: [ApiKeyVerifier, RateLimiter, AlertCreationLimit, ACCESS_TOKEN_VERIFIER],
})
export class AuthenticationModule {}
