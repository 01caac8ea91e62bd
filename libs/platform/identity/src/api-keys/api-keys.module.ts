import { Logger, Module } from '@nestjs/common';
import { CLOCK, type Clock } from '@taproot/config';
import { DataSource } from 'typeorm';
import { API_KEY_HANDLERS } from './api-key-commands';
import { API_KEY_USAGE_OPTIONS, ApiKeyUsageTracker, type ApiKeyUsageOptions } from './api-key-usage';
import { ApiKeysController } from './api-keys.controller';

const logger = new Logger('ApiKeyUsageTracker');

/**
 * Key management (`/v1/api_keys`) and the `last_used_at` batcher the verifier reports to.
 * Needs `CqrsModule.forRoot()` in the app (the api app has it). Override
 * `API_KEY_USAGE_OPTIONS` to change the flush interval.
 */
@Module({
  controllers: [ApiKeysController],
  providers: [
    ...API_KEY_HANDLERS,
    { provide: API_KEY_USAGE_OPTIONS, useValue: {} satisfies ApiKeyUsageOptions },
    {
      provide: ApiKeyUsageTracker,
      useFactory: (ds: DataSource, clock: Clock, options: ApiKeyUsageOptions) =>
        new ApiKeyUsageTracker(ds, clock, {
          onError: (error) => logger.warn(`last_used_at flush failed, kept for the next one: ${String(error)}`),
          ...options,
        }),
      inject: [DataSource, CLOCK, API_KEY_USAGE_OPTIONS],
    },
  ],
  exports: [ApiKeyUsageTracker],
})
export class ApiKeysModule {}
