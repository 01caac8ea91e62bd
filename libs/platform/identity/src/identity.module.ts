import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { CLOCK, type Clock } from '@taproot/config';
import { DataSource } from 'typeorm';
import { ApiKeyVerifier } from './api-keys/api-key-verifier';
import { BearerAuthGuard } from './principal/bearer-auth.guard';
import { RateLimitGuard } from './rate-limits/rate-limit.guard';
import { RateLimiter } from './rate-limits/rate-limiter';

/** Authentication and rate limits for every route of the app that imports it (opt out with `@Public()`). */
@Module({
  providers: [
    { provide: ApiKeyVerifier, useFactory: (ds: DataSource) => new ApiKeyVerifier(ds), inject: [DataSource] },
    { provide: RateLimiter, useFactory: (ds: DataSource, clock: Clock) => new RateLimiter(ds, clock), inject: [DataSource, CLOCK] },
    // Global guards run in this order: who is calling, then how often.
    { provide: APP_GUARD, useClass: BearerAuthGuard },
    { provide: APP_GUARD, useClass: RateLimitGuard },
  ],
  exports: [ApiKeyVerifier, RateLimiter],
})
export class IdentityModule {}
