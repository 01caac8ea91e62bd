import { Controller, Get, Param } from '@nestjs/common';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { JsonApiError } from '@taproot/json-api';
import { DataSource } from 'typeorm';
import { findReceipt } from './alert-receipts';

/**
 * `GET /v1/alerts/receipts/{id}`: what became of an item sent to an inbound alert route (its id
 * is in that route's answer, `meta.receipts`). Answers the reference's plain `receipt` object, not
 * a JSON:API document; readers of alerts may read receipts. docs/alert-sources.md.
 */
@Controller('v1/alerts/receipts')
export class AlertReceiptsController {
  constructor(private readonly dataSource: DataSource) {}

  @Get(':id')
  @RequirePermission('alerts', 'read')
  async get(@CurrentCaller() principal: Caller, @Param('id') id: string) {
    const receipt = await findReceipt(this.dataSource, principal.organizationId, id);
    if (!receipt) throw JsonApiError.notFound('receipts', id);
    return receipt;
  }
}
