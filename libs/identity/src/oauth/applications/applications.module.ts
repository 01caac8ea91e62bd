import { Module } from '@nestjs/common';
import { OAUTH_APPLICATION_HANDLERS } from './application-commands';
import { OAuthApplicationsController } from './applications.controller';

/** `/v1/oauth_applications`. Needs `CqrsModule.forRoot()` in the app (the api app has it). */
@Module({
  controllers: [OAuthApplicationsController],
  providers: [...OAUTH_APPLICATION_HANDLERS],
})
export class OAuthApplicationsModule {}
