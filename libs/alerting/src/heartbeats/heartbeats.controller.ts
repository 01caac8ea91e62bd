import { Controller, Get, Headers, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { actorOf, CurrentCaller, Public, RequirePermission, type Caller } from '@taproot/auth';
import { JsonApiError, type FlatQuery } from '@taproot/json-api';
import { IngestionError, parseJsonEmail, parseRawEmail, type ParsedEmail } from '../ingestion';
import { AlertingErrorCode } from '../errors';
import type { InboundRequest } from '../alert-sources/ingest-alerts/ingest-alerts.command';
import { PingHeartbeatCommand } from './ping-heartbeat/ping-heartbeat.command';

/** `POST /v1/heartbeats/{heartbeat_id}/ping` (reference `pingHeartbeat`): 204; another organization's heartbeat is a 404. */
@Controller('v1/heartbeats')
export class HeartbeatPingController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':heartbeat_id/ping')
  @HttpCode(204)
  @RequirePermission('heartbeats', 'update')
  async ping(@CurrentCaller() caller: Caller, @Param('heartbeat_id') id: string): Promise<void> {
    const access = { organizationId: caller.organizationId, actor: actorOf(caller), userId: caller.userId === null ? null : String(caller.userId) };
    await this.commands.execute(new PingHeartbeatCommand({ kind: 'caller', access, id }));
  }
}

/** `Authorization: Bearer <secret>`, else `?secret=` for tools that cannot set a header. */
function bearerOf(authorization: string | undefined, query: FlatQuery): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (match) return match[1];
  return typeof query.secret === 'string' ? query.secret : null;
}

/** The addresses a mail was sent to: the relay's envelope recipient (`?recipient=`) and the To header. */
function recipientsOf(request: InboundRequest, query: FlatQuery): string[] {
  const body = request.body;
  if (body === undefined || body === null || (typeof body === 'object' && !Buffer.isBuffer(body) && Object.keys(body).length === 0)) {
    throw JsonApiError.invalidAttributes([{ attribute: 'body', detail: 'body: one email, raw (message/rfc822) or parsed (application/json)', code: AlertingErrorCode.InvalidAlertPayload }]);
  }
  let parsed: ParsedEmail;
  try {
    parsed = Buffer.isBuffer(body) || typeof body === 'string' ? parseRawEmail(body) : parseJsonEmail(body);
  } catch (error) {
    if (!(error instanceof IngestionError)) throw error;
    throw JsonApiError.invalidAttributes([{ attribute: error.field, detail: `${error.field}: ${error.message}`, code: AlertingErrorCode.InvalidAlertPayload }]);
  }
  const envelope = typeof query.recipient === 'string' ? [query.recipient] : [];
  const addresses = [...envelope, ...(parsed.to ?? '').split(',')].map((a) => /<([^>]+)>/.exec(a)?.[1] ?? a);
  return addresses.map((a) => a.trim()).filter(Boolean);
}

/**
 * The public ping routes (docs/heartbeats.md); no API key, limited per client address:
 * - `GET`/`POST /v1/heartbeats/{id}/ping_heartbeat` (the heartbeat's `ping_url`): its `secret` as bearer token;
 * - `POST /v1/heartbeat_emails`: a mail relay hands over mail sent to a heartbeat's `email_address`;
 *   knowing the (unguessable) address is the credential, as with e-mail pings elsewhere.
 * Unknown heartbeat, wrong secret or address: 401 alike.
 */
@Public()
@Controller('v1')
export class HeartbeatPublicPingController {
  constructor(private readonly commands: CommandBus) {}

  @Post('heartbeats/:id/ping_heartbeat')
  @HttpCode(204)
  async ping(@Param('id') id: string, @Headers('authorization') authorization: string | undefined, @Query() query: FlatQuery): Promise<void> {
    await this.commands.execute(new PingHeartbeatCommand({ kind: 'secret', id, secret: bearerOf(authorization, query) }));
  }

  // Cron jobs and uptime checkers often only GET a URL.
  @Get('heartbeats/:id/ping_heartbeat')
  @HttpCode(204)
  pingByGet(@Param('id') id: string, @Headers('authorization') authorization: string | undefined, @Query() query: FlatQuery): Promise<void> {
    return this.ping(id, authorization, query);
  }

  @Post('heartbeat_emails')
  @HttpCode(204)
  async email(@Req() request: InboundRequest, @Query() query: FlatQuery): Promise<void> {
    await this.commands.execute(new PingHeartbeatCommand({ kind: 'email', recipients: recipientsOf(request, query) }));
  }
}
