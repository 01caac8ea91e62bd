import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { EVENT_TOPICS, ProjectionRunner } from '@taproot/messaging';
import { AuditLogProjection } from './audit-log.projection';
import { AuditsController } from './audits.controller';

@Module({ controllers: [AuditsController] })
export class AuditsModule implements OnModuleInit {
  constructor(
    private readonly projections: ProjectionRunner,
    @Inject(EVENT_TOPICS) private readonly topics: readonly string[],
  ) {}

  async onModuleInit(): Promise<void> {
    await this.projections.subscribe(new AuditLogProjection(this.topics));
  }
}
