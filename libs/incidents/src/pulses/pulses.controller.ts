import { Body, Controller, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { actorOf, CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { catalogIdsByIdOrSlug, type CatalogType } from '@taproot/catalog';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { JsonApiError, listWithVirtualFilters, parseInclude, parseResourcePayload, readRecords, withIncludes, type ResourceObject, type VirtualFilter } from '@taproot/json-api';
import type { FlatQuery } from '@taproot/resources';
import { DataSource } from 'typeorm';
import { CreatePulseCommand } from './commands/create-pulse/create-pulse.command';
import { UpdatePulseCommand } from './commands/update-pulse/update-pulse.command';
import { presentPulses } from './pulse-presenter';
import { PULSE_INCLUDES, pulseListSchema, pulseSchema, pulseStorageSchema } from './pulse.schema';

/**
 * Services and environments by id or slug through the lookup the writes use (pulse-rules), so a
 * filter names what a write would; the others as they are stored. `ids` still matches the uuid of
 * a record deleted since, which the stored lists keep.
 */
const byIdOrSlug =
  (type: CatalogType): VirtualFilter['named'] =>
  async (db, organizationId, values) => [...(await catalogIdsByIdOrSlug(db, organizationId, type, values)).values()];

/** How the list's filters on services, environments, labels and refs become overlaps of the stored lists (docs/pulses.md). */
const LIST_FILTERS: Record<string, VirtualFilter> = {
  services: { target: 'service_ids', ids: true, named: byIdOrSlug('services') },
  environments: { target: 'environment_ids', ids: true, named: byIdOrSlug('environments') },
  labels: { target: 'label_pairs' },
  refs: { target: 'ref_pairs' },
};

/**
 * `/v1/pulses` (docs/pulses.md): list, create, get and update (no delete), permission family
 * `pulses`; another organization's pulse is a 404 on every route.
 */
@Controller('v1/pulses')
export class PulsesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly dataSource: DataSource,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
  ) {}

  /** Stored pulses as the API answers them, with what `include` asked for. */
  private async answered(organizationId: string, stored: ResourceObject[], include: string[]) {
    const pulses = await presentPulses(this.dataSource, organizationId, stored);
    return withIncludes({ db: this.dataSource, organizationId }, pulseSchema, PULSE_INCLUDES, pulses, include);
  }

  @Get()
  @RequirePermission('pulses', 'read')
  async list(@CurrentCaller() caller: Caller, @Query() query: FlatQuery) {
    const { organizationId } = caller;
    const declared = { schema: pulseListSchema, serializeAs: pulseStorageSchema, virtual: LIST_FILTERS };
    const { document, include } = await listWithVirtualFilters({ db: this.dataSource, ...declared, query, organizationId, cursorSecret: this.config.cursorSecret });
    return { ...document, ...(await this.answered(organizationId, document.data, include)) };
  }

  @Get(':id')
  @RequirePermission('pulses', 'read')
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: FlatQuery) {
    const include = parseInclude(pulseSchema, query.include);
    // By id only (a pulse has no slug): anything else, or another organization's, is missing.
    const stored = (await readRecords(this.dataSource, pulseStorageSchema, caller.organizationId, [id])).get(id.toLowerCase());
    if (!stored) throw JsonApiError.notFound(pulseSchema.type, id);
    const { data: [pulse], included } = await this.answered(caller.organizationId, [stored], include);
    return { data: pulse, ...(included ? { included } : {}) };
  }

  @Post()
  @RequirePermission('pulses', 'create')
  @HttpCode(201)
  async create(@CurrentCaller() caller: Caller, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(pulseSchema, body, 'create');
    return { data: await this.commands.execute(new CreatePulseCommand(caller.organizationId, actorOf(caller), attributes)) };
  }

  @Put(':id')
  @RequirePermission('pulses', 'update')
  async update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(pulseSchema, body, 'update');
    return { data: await this.commands.execute(new UpdatePulseCommand(caller.organizationId, actorOf(caller), id, attributes)) };
  }
}
