import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { AuditLogProjection } from './audit-log.projection';
import { AuditsController } from './audits.controller';

@Module({ controllers: [AuditsController] })
export class AuditsModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  async onModuleInit(): Promise<void> {
    await this.projections.subscribe(new AuditLogProjection());
  }
}
