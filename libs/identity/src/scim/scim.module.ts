import { Module } from '@nestjs/common';
import { ScimController, ScimTokenGuard } from './scim.controller';

/** SCIM 2.0 under `/scim/v2` (README, "SCIM provisioning"). Uses the users' and teams' command handlers. */
@Module({ controllers: [ScimController], providers: [ScimTokenGuard] })
export class ScimModule {}
