import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CLOCK, TAPROOT_CONFIG, type Clock, type TaprootConfig } from '@taproot/config';
import { UnitOfWork } from '@taproot/messaging';
import { CallerResolver } from './caller/caller-resolver';
import { DataSource } from 'typeorm';
import { ApiKeyVerifier } from './api-keys/api-key-verifier';
import { ACCESS_TOKEN_VERIFIER, JwtAccessTokenVerifier, noAccessTokens, type AccessTokenVerifier } from './oauth/access-token-verifier';
import { ApiKeyUsageTracker } from './api-keys/api-key-usage';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { BearerAuthGuard } from './principal/bearer-auth.guard';
import { PermissionGuard } from './permissions/permission.guard';
import { PermissionResolver } from './permissions/permission-resolver';
import { TeamOwnershipChecker } from './permissions/team-ownership';
import { RateLimitGuard } from './rate-limits/rate-limit.guard';
import { RateLimiter } from './rate-limits/rate-limiter';
import { AlertCreationLimit, alertCreationLimitProvider } from './rate-limits/alert-creation-limit';
import { TeamsModule } from './teams/teams.module';
import { UsersModule } from './users/users.module';
import { AuditsModule } from './audits/audits.module';

/**
 * Authentication and rate limits for every route of the app that imports it (opt out with
 * `@Public()`). Global, so contexts inject its exports (the alert-creation limit) without
 * importing the module a second time.
 */
@Global()
@Module({
  imports: [ApiKeysModule, UsersModule, TeamsModule, AuditsModule],
  providers: [
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
      useFactory: (keys: ApiKeyVerifier, tokens: AccessTokenVerifier, permissions: PermissionResolver, clock: Clock, config: TaprootConfig, uow: UnitOfWork) => {
        const callers = new CallerResolver(keys, tokens, permissions, clock, { ttlMs: config.authCacheTtlMs });
        uow.onCommit((events) => callers.committed(events));
        return callers;
      },
      inject: [ApiKeyVerifier, ACCESS_TOKEN_VERIFIER, PermissionResolver, CLOCK, TAPROOT_CONFIG, UnitOfWork],
    },
    { provide: APP_GUARD, useClass: BearerAuthGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
    // Then what it may do: routes marked `@RequirePermission` answer 403 without it.
    { provide: TeamOwnershipChecker, useFactory: (ds: DataSource) => new TeamOwnershipChecker(ds), inject: [DataSource] },
    { provide: APP_GUARD, useClass: PermissionGuard },
  ],
  exports: [ApiKeyVerifier, RateLimiter, AlertCreationLimit],
})
export class IdentityModule {}
