import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, TAPROOT_CONFIG, type Clock, type Logger, type TaprootConfig } from '@taproot/config';
import { deletedBy, RetentionPruner, type RetentionPrunerOptions } from '@taproot/messaging';
import { LOGGER } from '@taproot/runtime';
import { DataSource } from 'typeorm';

/**
 * Settled deliveries (delivered, failed) created before the cutoff, a chunk at most. One
 * organization at a time through the deliveries' list index (organization, created_at): every
 * delivery's organization has an endpoint (deleting one deletes its deliveries), so no index of
 * its own is written on every delivery for this.
 */
const DELETE_SETTLED = `DELETE FROM webhooks_deliveries WHERE ctid = ANY(ARRAY(
  SELECT old.ctid FROM (SELECT DISTINCT organization_id FROM webhooks_endpoints) o
  CROSS JOIN LATERAL (SELECT d.ctid FROM webhooks_deliveries d
                       WHERE d.organization_id = o.organization_id AND d.created_at < $1 AND d.status IN ('delivered', 'failed')
                       LIMIT $2) old
  LIMIT $2))`;

/** The pruner of settled deliveries older than `retentionMs` by `clock` (docs/webhook-delivery.md, "Retention"). */
export function deliveryPruner(
  dataSource: DataSource,
  clock: Clock,
  opts: { retentionMs: number } & Omit<RetentionPrunerOptions, 'name' | 'deleteChunk'>,
): RetentionPruner {
  const { retentionMs, ...loop } = opts;
  return new RetentionPruner({
    ...loop,
    name: 'webhook delivery pruner',
    deleteChunk: (limit) => deletedBy(dataSource, DELETE_SETTLED, [new Date(clock.now().getTime() - retentionMs), limit]),
  });
}

/**
 * Deletes the dispatcher's settled deliveries after WEBHOOK_DELIVERY_RETENTION_DAYS, so the table
 * (a row per event and endpoint, with its body and the last answer) does not grow for ever.
 * Deliveries still pending or retrying stay whatever their age.
 */
@Injectable()
export class WebhookDeliveryRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly pruner: RetentionPruner;

  constructor(dataSource: DataSource, @Inject(CLOCK) clock: Clock, @Inject(TAPROOT_CONFIG) config: TaprootConfig, @Inject(LOGGER) logger: Logger) {
    this.pruner = deliveryPruner(dataSource, clock, { retentionMs: config.webhookDeliveryRetentionDays * 86_400_000, logger: logger.child({ component: 'webhook-delivery-pruner' }) });
  }

  onApplicationBootstrap(): void {
    this.pruner.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.pruner.stop();
  }
}
