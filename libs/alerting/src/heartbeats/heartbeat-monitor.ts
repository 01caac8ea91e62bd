import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, TAPROOT_CONFIG, type Clock, type Logger, type TaprootConfig } from '@taproot/config';
import { PassLoop, UnitOfWork } from '@taproot/messaging';
import { ResourceWriteHandler } from '@taproot/resources';
import { LOGGER } from '@taproot/runtime';
import { PAGING_ACTOR } from '../paging/fire-steps';
import { heartbeatDefinition } from './heartbeat.schema';
import { expireHeartbeat } from './heartbeat-writes';

/** Heartbeats expired per transaction. */
const BATCH = 100;

/**
 * Expires heartbeats whose deadline passed (docs/heartbeats.md). The deadline is the row's
 * `expires_at`; a pass claims the due rows with FOR UPDATE SKIP LOCKED and expires each in the
 * same transaction (its alert, its `expired` status), so across replicas and restarts each expiry
 * happens once. Polled every `PAGING_POLL_MS` (0: only when a test calls `tick`), time from the
 * injected clock.
 */
@Injectable()
export class HeartbeatMonitor extends ResourceWriteHandler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: PassLoop;

  constructor(
    unitOfWork: UnitOfWork,
    @Inject(CLOCK) clock: Clock,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    super(unitOfWork, clock);
    this.loop = new PassLoop({ name: 'heartbeat monitor', pollMs: config.pagingPollMs, logger, pass: async () => (await this.tick()) >= BATCH });
  }

  onApplicationBootstrap(): void {
    if (this.config.pagingPollMs > 0) this.loop.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** One pass: expires the heartbeats due by the clock; answers how many were claimed. */
  tick(): Promise<number> {
    return this.commitIsolated(async (scope) => {
      const due = (await scope.manager.query(
        `SELECT id, organization_id FROM heartbeats WHERE status = 'active' AND enabled AND expires_at <= $1 ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
        [scope.now, BATCH],
      )) as { id: string; organization_id: string }[];
      for (const { id, organization_id: organizationId } of due) {
        const access = { organizationId, actor: PAGING_ACTOR, userId: null };
        const done = await scope.attempt({ definition: heartbeatDefinition, organizationId, actor: PAGING_ACTOR, userId: null }, (writer, ctx, keep) => expireHeartbeat(writer, ctx, keep, access, id));
        // One that fails stays due (its savepoint is rolled back) and is tried again on the next pass.
        if (done.ok) this.logger.info({ heartbeatId: id, organizationId, alertId: done.value }, 'heartbeat expired');
        else this.logger.error({ err: done.error, heartbeatId: id, organizationId }, 'heartbeat expiry failed');
      }
      return due.length;
    });
  }
}
