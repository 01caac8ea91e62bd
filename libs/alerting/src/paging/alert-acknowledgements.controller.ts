import { Controller, Get, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Public } from '@taproot/auth';
import { CLOCK, TAPROOT_CONFIG, type Clock, type TaprootConfig } from '@taproot/config';
import { JsonApiError, type ResourceObject } from '@taproot/json-api';
import { AcknowledgeAlertByLinkCommand } from '../alerts/commands';
import { verifyAcknowledgeToken } from './channels/acknowledge-link';

/**
 * `/v1/alert_acknowledgements?token=`: the signed one-click link in every notification. The
 * token is the credential (no API key): it names one notification of one organization, expires,
 * and works once (docs/paging.md). GET acknowledges, so a click in any mail client is enough.
 */
@Controller('v1/alert_acknowledgements')
export class AlertAcknowledgementsController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @Public()
  viaLink(@Query('token') token: unknown) {
    return this.acknowledge(token);
  }

  @Post()
  @Public()
  @HttpCode(200)
  viaForm(@Query('token') token: unknown) {
    return this.acknowledge(token);
  }

  /** The token rides in the query: it is longer than a path segment may be. */
  private async acknowledge(token: unknown): Promise<{ data: ResourceObject }> {
    const claims = typeof token === 'string' ? verifyAcknowledgeToken(token, this.config.acknowledgeLinkSecret, this.clock.now()) : null;
    if (!claims) throw JsonApiError.of(404, 'Not Found', 'This acknowledge link is not valid or has expired', 'ACKNOWLEDGE_LINK_INVALID');
    const access = { organizationId: claims.organizationId, actor: { kind: 'user' as const, id: claims.userId === null ? null : String(claims.userId) }, userId: claims.userId === null ? null : String(claims.userId) };
    return { data: await this.commands.execute(new AcknowledgeAlertByLinkCommand(access, claims.alertId, claims.notificationId)) };
  }
}
