import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { ResourceListProjection } from '@taproot/resources';
import { TEAM_HANDLERS, teamDefinition } from './team-commands';
import { TeamsController } from './teams.controller';

/**
 * `/v1/teams` (groups), its bulk operations and the `groups_read` projection. Needs
 * `CqrsModule.forRoot()` and the generic `RESOURCE_HANDLERS` in the app (the api app has both).
 */
@Module({ controllers: [TeamsController], providers: [...TEAM_HANDLERS] })
export class TeamsModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    this.projections.inline(new ResourceListProjection(teamDefinition));
  }
}
