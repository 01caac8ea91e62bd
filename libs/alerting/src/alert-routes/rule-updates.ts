import { Controller, Get, Inject, Injectable, Param, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { CLOCK, TAPROOT_CONFIG, type Clock, type Logger, type TaprootConfig } from '@taproot/config';
import { isUuid, JsonApiError } from '@taproot/json-api';
import { isTransientFailure, PassLoop, UnitOfWork } from '@taproot/messaging';
import { ResourceWriteHandler } from '@taproot/resources';
import { LOGGER } from '@taproot/runtime';
import { DataSource } from 'typeorm';
import { alertRouteDefinition } from './alert-route.schema';
import { RULE_UPDATER } from './routing-settings';

/** Deferred rule updates saved per transaction. */
const BATCH = 20;

interface PendingUpdate {
  organization_id: string;
  request_id: string;
  alert_route_id: string;
  rules: unknown;
}

/**
 * Saves the rule updates of routes that were deferred (docs/alert-routing.md, "Large rule graphs"),
 * oldest first, each under its savepoint: completed, or failed with the problems that refused it
 * (the route deleted meanwhile, a record its rules name deleted). Woken when a route update
 * commits, and polled every PAGING_POLL_MS; tests call `tick`.
 */
@Injectable()
export class AlertRouteRuleUpdater extends ResourceWriteHandler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly loop: PassLoop;

  constructor(
    unitOfWork: UnitOfWork,
    @Inject(CLOCK) clock: Clock,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
    @Inject(LOGGER) logger: Logger,
  ) {
    super(unitOfWork, clock);
    this.loop = new PassLoop({ name: 'alert route rule updates', pollMs: config.pagingPollMs, logger, pass: async () => (await this.tick()) >= BATCH });
    unitOfWork.onCommit((events) => {
      if (events.some((e) => e.type === 'alert_route.updated')) this.loop.kick();
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.pagingPollMs > 0) this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** One pass: the pending updates saved; answers how many were taken. */
  tick(): Promise<number> {
    return this.commitIsolated(async (scope) => {
      const pending = (await scope.manager.query(
        `SELECT organization_id, request_id, alert_route_id, rules FROM alert_route_rule_updates WHERE status = 'pending' ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [BATCH],
      )) as PendingUpdate[];
      for (const update of pending) {
        const command = { definition: alertRouteDefinition, organizationId: update.organization_id, actor: RULE_UPDATER, userId: null };
        const saved = await scope.attempt(command, async (writer, ctx, keep) => keep(await writer.update(ctx, update.alert_route_id, { rules: update.rules })));
        // A database away is no verdict on the update: the pass fails and the update stays pending.
        if (!saved.ok && (isTransientFailure(saved.error) || !(saved.error instanceof JsonApiError))) throw saved.error;
        const errors = saved.ok ? [] : (saved.error as JsonApiError).errors;
        await scope.manager.query('UPDATE alert_route_rule_updates SET status = $3, errors = $4, completed_at = $5 WHERE organization_id = $1 AND request_id = $2', [
          update.organization_id,
          update.request_id,
          saved.ok ? 'completed' : 'failed',
          JSON.stringify(errors),
          scope.now,
        ]);
      }
      return pending.length;
    });
  }
}

interface UpdateRow {
  request_id: string;
  alert_route_id: string;
  status: 'pending' | 'completed' | 'failed';
  errors: { detail?: string }[];
  created_at: Date;
  completed_at: Date | null;
}

/** The hosted API's words for a rule update's status (its Terraform provider accepts these three only). */
const HOSTED_STATUS = { pending: 'pending', completed: 'success', failed: 'error' } as const;

/**
 * Where the rule update recorded under a request id stands, read by both status routes: the
 * hosted API's `async_rule_creation_status` (a plain object, as its Terraform provider decodes it)
 * and Taproot's `rule_updates` (a JSON:API document with each problem's pointer). The update is
 * the caller's organization's and the route's: any other answers 404.
 */
@Controller('v1/alert_routes')
export class AlertRouteRuleUpdatesController {
  constructor(private readonly dataSource: DataSource) {}

  private async find(caller: Caller, id: string, requestId: string): Promise<UpdateRow> {
    const [row] = isUuid(id)
      ? ((await this.dataSource.query('SELECT request_id, alert_route_id::text, status, errors, created_at, completed_at FROM alert_route_rule_updates WHERE organization_id = $1 AND alert_route_id = $2 AND request_id = $3', [
          caller.organizationId,
          id,
          requestId,
        ])) as UpdateRow[])
      : [];
    if (!row) throw JsonApiError.notFound('alert_route_rule_updates', requestId);
    return row;
  }

  /** `{"status": "success" | "pending" | "error", "error": "..."}`, the error the problems' details. */
  @Get(':id/async_rule_creation_status/:request_id')
  @RequirePermission('alert_routing_rules', 'read')
  async hostedStatus(@CurrentCaller() caller: Caller, @Param('id') id: string, @Param('request_id') requestId: string) {
    const { status, errors } = await this.find(caller, id, requestId);
    return status === 'failed' ? { status: HOSTED_STATUS[status], error: errors.map((e) => e.detail).join('; ') } : { status: HOSTED_STATUS[status] };
  }

  /** The same update as a JSON:API resource: pending, completed, or failed with its errors. */
  @Get(':id/rule_updates/:request_id')
  @RequirePermission('alert_routing_rules', 'read')
  async status(@CurrentCaller() caller: Caller, @Param('id') id: string, @Param('request_id') requestId: string) {
    const { request_id, created_at, completed_at, ...attributes } = await this.find(caller, id, requestId);
    return { data: { id: request_id, type: 'alert_route_rule_updates', attributes: { ...attributes, created_at: created_at.toISOString(), completed_at: completed_at?.toISOString() ?? null } } };
  }
}
