import { Module } from '@nestjs/common';
import { USER_HANDLERS } from './user-commands';
import { UsersController } from './users.controller';

/** `/v1/users` and `/v1/users/me`. Needs `CqrsModule.forRoot()` and the generic `RESOURCE_HANDLERS` in the app. */
@Module({ controllers: [UsersController], providers: [...USER_HANDLERS] })
export class UsersModule {}
