import { Controller, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { OwnRateLimit, Public } from '@taproot/auth';
import type { FlatQuery } from '@taproot/json-api';
import { IngestAlertsCommand, type IngestedAlerts, type InboundRequest } from './ingest-alerts/ingest-alerts.command';

/**
 * The public inbound routes of alert sources (docs/alert-sources.md), both answered 202 by the
 * `IngestAlerts` use case:
 * - `POST /v1/alert_sources/{id}/alerts`: where monitoring tools send their JSON;
 * - `POST /v1/alert_sources/{id}/emails`: where mail relays hand over the mail of email sources.
 * No bearer token: the source's secret authenticates the sender (a signature, or `?secret=`).
 */
@Public()
@OwnRateLimit()
@Controller('v1/alert_sources')
export class AlertIngestionController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/alerts')
  @HttpCode(202)
  ingest(@Param('id') id: string, @Query() query: FlatQuery, @Req() request: InboundRequest): Promise<IngestedAlerts> {
    return this.commands.execute(new IngestAlertsCommand(id, 'alerts', request, query.secret));
  }

  @Post(':id/emails')
  @HttpCode(202)
  ingestEmail(@Param('id') id: string, @Query() query: FlatQuery, @Req() request: InboundRequest): Promise<IngestedAlerts> {
    return this.commands.execute(new IngestAlertsCommand(id, 'emails', request, query.secret));
  }
}
