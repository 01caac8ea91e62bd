import { Module } from '@nestjs/common';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';

/** `/v1/users` and `/v1/users/me`. */
@Module({ controllers: [UsersController], providers: [UsersService] })
export class UsersModule {}
