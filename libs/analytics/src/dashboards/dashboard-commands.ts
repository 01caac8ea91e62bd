import { CommandHandler } from '@nestjs/cqrs';
import { actorOf, type Caller } from '@taproot/auth';
import { domainEvent, type EventActor } from '@taproot/messaging';
import { ResourceWriteHandler, ResourceWriter, type ResourceWriteCommand, type Row, type Snapshot } from '@taproot/resources';
import { dashboardPanelDefinition } from '../dashboard-panels/dashboard-panel.schema';
import { dashboardDefinition } from './dashboard.schema';

/** The attributes a copy takes from its original: what a client could have written. */
function copyOf(definition: typeof dashboardDefinition, row: Row): Row {
  const written = Object.entries(definition.schema.attributes).filter(([, def]) => (def.writable ?? true) !== false && !def.derivedFrom);
  return Object.fromEntries(written.map(([name]) => [name, row[name]]));
}

abstract class CallerCommand implements ResourceWriteCommand {
  readonly organizationId: string;
  readonly actor: EventActor;
  readonly userId: string | null;
  abstract readonly definition: ResourceWriteCommand['definition'];
  constructor(caller: Caller) {
    this.organizationId = caller.organizationId;
    this.actor = actorOf(caller);
    this.userId = caller.userId === null ? null : String(caller.userId);
  }
}

/** `POST /v1/dashboards/{id}/duplicate`: a copy of the dashboard and its panels, the caller's. */
export class DuplicateDashboardCommand extends CallerCommand {
  readonly definition = dashboardDefinition;
  constructor(
    caller: Caller,
    readonly id: string,
  ) {
    super(caller);
  }
}

@CommandHandler(DuplicateDashboardCommand)
export class DuplicateDashboardHandler extends ResourceWriteHandler {
  execute(c: DuplicateDashboardCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => {
      const original = await writer.load(ctx.manager, ctx.organizationId, c.id);
      const copy = keep(await writer.create(ctx, { ...copyOf(dashboardDefinition, original), name: `${String(original.name)} (copy)` }));
      const panels = (await ctx.manager.query('SELECT * FROM dashboard_panels WHERE organization_id = $1 AND dashboard_id = $2 ORDER BY created_at, id', [ctx.organizationId, original.id])) as Row[];
      const panelWriter = new ResourceWriter(dashboardPanelDefinition);
      for (const panel of panels) keep(await panelWriter.create(ctx, copyOf(dashboardPanelDefinition, panel), copy.id));
      return copy;
    });
  }
}

/** `POST /v1/dashboard_panels/{id}/duplicate`: a copy of the panel on the same dashboard. */
export class DuplicateDashboardPanelCommand extends CallerCommand {
  readonly definition = dashboardPanelDefinition;
  constructor(
    caller: Caller,
    readonly id: string,
  ) {
    super(caller);
  }
}

@CommandHandler(DuplicateDashboardPanelCommand)
export class DuplicateDashboardPanelHandler extends ResourceWriteHandler {
  execute(c: DuplicateDashboardPanelCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => {
      const original = await writer.load(ctx.manager, ctx.organizationId, c.id);
      const name = original.name == null ? null : `${String(original.name)} (copy)`;
      return keep(await writer.create(ctx, { ...copyOf(dashboardPanelDefinition, original), name }, String(original.dashboard_id)));
    });
  }
}

export const DASHBOARD_DEFAULT_SET = 'dashboard.default_set';

/**
 * `POST /v1/dashboards/{id}/set_default`: the caller's default dashboard (a user's own; a key
 * without a user sets the organization's), announced with `dashboard.default_set`.
 */
export class SetDefaultDashboardCommand extends CallerCommand {
  readonly definition = dashboardDefinition;
  constructor(
    caller: Caller,
    readonly id: string,
  ) {
    super(caller);
  }
}

@CommandHandler(SetDefaultDashboardCommand)
export class SetDefaultDashboardHandler extends ResourceWriteHandler {
  execute(c: SetDefaultDashboardCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => {
      const dashboard = writer.snapshot(await writer.load(ctx.manager, ctx.organizationId, c.id));
      const owner = ctx.userId ? `user:${ctx.userId}` : 'organization';
      await ctx.manager.query(
        `INSERT INTO dashboard_defaults (organization_id, owner, dashboard_id, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (organization_id, owner) DO UPDATE SET dashboard_id = EXCLUDED.dashboard_id, updated_at = EXCLUDED.updated_at`,
        [ctx.organizationId, owner, dashboard.id, ctx.now],
      );
      const event = domainEvent({
        type: DASHBOARD_DEFAULT_SET,
        organizationId: ctx.organizationId,
        aggregateType: 'dashboards',
        aggregateId: dashboard.id,
        actor: ctx.actor,
        payload: { dashboard_id: dashboard.id, owner },
      });
      return keep({ snapshot: dashboard, events: [event] });
    });
  }
}
