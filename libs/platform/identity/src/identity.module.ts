import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { ApiKeyVerifier } from './api-keys/api-key-verifier';
import { BearerAuthGuard } from './principal/bearer-auth.guard';

/** Authentication for every route of the app that imports it (opt out with `@Public()`). */
@Module({
  providers: [
    { provide: ApiKeyVerifier, useFactory: (ds: DataSource) => new ApiKeyVerifier(ds), inject: [DataSource] },
    { provide: APP_GUARD, useClass: BearerAuthGuard },
  ],
  exports: [ApiKeyVerifier],
})
export class IdentityModule {}
