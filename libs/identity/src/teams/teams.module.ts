import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { TeamsController } from './teams.controller';
import { TeamsProjection, TeamsService } from './teams.service';

/** `/v1/teams` (groups), its bulk operations and the `groups_read` projection. */
@Module({ controllers: [TeamsController], providers: [TeamsService] })
export class TeamsModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    this.projections.inline(new TeamsProjection());
  }
}
