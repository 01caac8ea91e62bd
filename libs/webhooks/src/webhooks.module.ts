import { Module } from '@nestjs/common';

/** The webhooks bounded context: endpoints, secrets and deliveries (docs/webhooks.md). */
@Module({})
export class WebhooksModule {}
