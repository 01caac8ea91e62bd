import { Controller, Get, Inject, Query } from '@nestjs/common';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { listDocument, type FlatQuery } from '@taproot/json-api';
import { DataSource } from 'typeorm';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { auditSchema } from './audit.schema';

/** `GET /v1/audits`: read-only, filtered by actor (user, key), item type, source and date. */
@Controller('v1/audits')
export class AuditsController {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
  ) {}

  @Get()
  @RequirePermission('audits', 'read')
  list(@CurrentCaller() principal: Caller, @Query() query: FlatQuery) {
    return listDocument({ db: this.dataSource, schema: auditSchema, query, organizationId: principal.organizationId, cursorSecret: this.config.cursorSecret });
  }
}
