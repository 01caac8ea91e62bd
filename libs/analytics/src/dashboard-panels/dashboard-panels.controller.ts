import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { actorOf, CurrentCaller, type Caller } from '@taproot/auth';
import { CLOCK, type Clock } from '@taproot/config';
import { parseResourcePayload, type ResourceObject } from '@taproot/json-api';
import { CreateResourceCommand, DeleteResourceCommand, GetResourceQuery, ListResourcesQuery, snapshotObject, UpdateResourceCommand, type FlatQuery, type Snapshot } from '@taproot/resources';
import { DataSource } from 'typeorm';
import { DuplicateDashboardPanelCommand } from '../dashboards/dashboard-commands';
import { dashboardPanelDefinition as definition, dashboardPanelSchema as schema } from './dashboard-panel.schema';
import { dataWindow, panelData } from './panel-data';

const COLLECTION = 'v1/dashboards/:dashboard_id/panels';
const RECORDS = 'v1/dashboard_panels';

/**
 * Dashboard panels (docs/dashboards.md): the declaration's CRUD through the generic commands and
 * queries, each answered panel with its `data` computed for the read's window (`range`,
 * `period`, `time_zone`, else its dashboard's), and the panel's duplicate.
 */
@Controller()
export class DashboardPanelsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(COLLECTION)
  async list(@CurrentCaller() caller: Caller, @Param('dashboard_id') dashboardId: string, @Query() query: FlatQuery) {
    const page: { data: ResourceObject[] } = await this.queries.execute(new ListResourcesQuery(definition, caller.organizationId, query, dashboardId));
    return { ...page, data: await this.withData(caller, page.data, query) };
  }

  @Get(`${RECORDS}/:id`)
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: FlatQuery) {
    const found: { data: ResourceObject } = await this.queries.execute(new GetResourceQuery(definition, caller.organizationId, id, query));
    return { ...found, data: (await this.withData(caller, [found.data], query))[0] };
  }

  @Post(COLLECTION)
  @HttpCode(201)
  async create(@CurrentCaller() caller: Caller, @Param('dashboard_id') dashboardId: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(schema, body, 'create');
    const snapshot: Snapshot = await this.commands.execute(new CreateResourceCommand(definition, caller.organizationId, actorOf(caller), attributes, dashboardId, userOf(caller)));
    return this.answer(caller, snapshot);
  }

  @Put(`${RECORDS}/:id`)
  async update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(schema, body, 'update');
    const snapshot: Snapshot = await this.commands.execute(new UpdateResourceCommand(definition, caller.organizationId, actorOf(caller), id, attributes, userOf(caller)));
    return this.answer(caller, snapshot);
  }

  @Delete(`${RECORDS}/:id`)
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const snapshot: Snapshot = await this.commands.execute(new DeleteResourceCommand(definition, caller.organizationId, actorOf(caller), id));
    return { data: snapshotObject(schema, snapshot) };
  }

  @Post(`${RECORDS}/:id/duplicate`)
  @HttpCode(201)
  async duplicate(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.answer(caller, await this.commands.execute(new DuplicateDashboardPanelCommand(caller, id)));
  }

  private async answer(caller: Caller, snapshot: Snapshot) {
    return { data: (await this.withData(caller, [snapshotObject(schema, snapshot)], {}))[0] };
  }

  /** The panels with their `data`, each over its dashboard's window unless the query names one. */
  private async withData(caller: Caller, panels: ResourceObject[], query: FlatQuery): Promise<ResourceObject[]> {
    const ids = [...new Set(panels.map((p) => String(p.attributes.dashboard_id)))];
    const dashboards = (await this.dataSource.query('SELECT id, range, period FROM dashboards_read WHERE organization_id = $1 AND id = ANY($2::uuid[])', [caller.organizationId, ids])) as {
      id: string;
      range: string | null;
      period: string | null;
    }[];
    const byId = new Map(dashboards.map((d) => [d.id, d]));
    const now = this.clock.now();
    return Promise.all(
      panels.map(async (panel) => {
        const window = dataWindow(query, byId.get(String(panel.attributes.dashboard_id)) ?? {}, now);
        const data = await panelData(this.dataSource, caller, (panel.attributes.params ?? {}) as Parameters<typeof panelData>[2], window);
        return { ...panel, attributes: { ...panel.attributes, data } };
      }),
    );
  }
}

const userOf = (caller: Caller) => (caller.userId === null ? null : String(caller.userId));
