import { Module, type OnModuleInit } from '@nestjs/common';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { ProjectionRunner } from '@taproot/messaging';
import { ResourceListProjection } from '@taproot/resources';
import { webhooksEndpointDefinition } from '../endpoints/webhooks-endpoint.schema';
import { WEBHOOK_SENDER, WebhookDeliveryEngine } from './delivery-engine';
import { WebhookDeliveryRetention } from './delivery-retention';
import { WebhookEndpointDisabler } from './endpoint-disabler';
import { createGuardedSender } from './guarded-sender';

/**
 * The delivery engine for the app that hosts it (the webhook dispatcher), sending through the
 * SSRF-guarded sender with the operator's settings, and the pruning of settled deliveries past
 * their retention. The endpoints' read model is kept in this
 * process too: disabling an endpoint writes it like any update.
 */
@Module({
  providers: [
    WebhookDeliveryEngine,
    WebhookEndpointDisabler,
    WebhookDeliveryRetention,
    {
      provide: WEBHOOK_SENDER,
      inject: [TAPROOT_CONFIG],
      useFactory: (config: TaprootConfig) =>
        createGuardedSender({ allowedNetworks: config.webhookAllowedNetworks, timeoutMs: config.webhookTimeoutMs, connections: config.webhookConcurrency }),
    },
  ],
  exports: [WebhookDeliveryEngine],
})
export class WebhookDeliveryModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    this.projections.inline(new ResourceListProjection(webhooksEndpointDefinition));
  }
}
