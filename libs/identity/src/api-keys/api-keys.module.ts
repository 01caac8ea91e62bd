import { Module } from '@nestjs/common';
import { API_KEY_HANDLERS } from './api-key-commands';
import { ApiKeysController } from './api-keys.controller';

/**
 * Key management (`/v1/api_keys`). Needs `CqrsModule.forRoot()` in the app (the api app has
 * it); verifying keys and recording their use is `@taproot/auth`'s.
 */
@Module({
  controllers: [ApiKeysController],
  providers: [...API_KEY_HANDLERS],
})
export class ApiKeysModule {}
