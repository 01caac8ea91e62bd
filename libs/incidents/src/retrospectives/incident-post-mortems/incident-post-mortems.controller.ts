import { Body, Controller, Get, Inject, Param, Put, Query, Res, type Type } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { JsonApiError, listDocument, parseListQuery, parseResourcePayload, rewriteVirtualFilters, type CollectionDocument, type SingleDocument } from '@taproot/json-api';
import { GetResourceQuery, snapshotObject, warnDeprecated, type FlatQuery, type HeaderReply, type Snapshot } from '@taproot/resources';
import { DataSource } from 'typeorm';
import { findIncident, incidentAccess } from '../../incidents/incident-access';
import { incidentFilterLookups } from '../../incidents/incident-filters';
import { hidePrivateIncidents } from '../../incident-children/incident-parent';
import { incidentPostMortemDefinition, incidentPostMortemListSchema, incidentPostMortemSchema, POST_MORTEM_INCIDENT_FILTERS } from './incident-post-mortem.schema';
import { UpdateIncidentPostMortemCommand } from './update-incident-post-mortem';

/** The list's filters on the incident's related records, rewritten into the view's id columns (names looked up in the organization). */
const INCIDENT_FILTERS = incidentFilterLookups(POST_MORTEM_INCIDENT_FILTERS);

/**
 * The post mortems' routes (docs/retrospectives.md): a list whose filters on the incident's
 * related records are incidents' own (`incidentFilterLookups`), the generic get query, both seen
 * as their incidents are (a private incident's is missing for callers who may not read private
 * incidents), and a PUT that upserts (`UpdateIncidentPostMortemCommand`). Not the generic
 * controller: a post mortem's id is its incident's uuid or slug, and its PUT upserts.
 */
@Controller()
export class IncidentPostMortemsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly dataSource: DataSource,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
  ) {}

  /** The incident `raw` names (uuid or slug) as the caller may see it: its id; a 404 of a post mortem otherwise. */
  private async incidentId(caller: Caller, raw: string): Promise<string> {
    try {
      return String((await findIncident(this.dataSource, 'incidents_read', incidentAccess(caller), raw)).id);
    } catch (error) {
      if (error instanceof JsonApiError && error.status === 404) throw JsonApiError.notFound(incidentPostMortemSchema.type, raw);
      throw error;
    }
  }

  /** The reference's `include` is a free string and names no relationship Taproot has: accepted, includes nothing. */
  private withoutInclude(query: FlatQuery): FlatQuery {
    const { include: _ignored, ...rest } = query;
    return rest;
  }

  @Get('v1/post_mortems')
  @RequirePermission('retrospective', 'read')
  async list(@CurrentCaller() caller: Caller, @Query() raw: FlatQuery): Promise<CollectionDocument> {
    const { dataSource: db, config: { cursorSecret } } = this;
    const { organizationId } = caller;
    const query = this.withoutInclude(raw);
    const parsed = parseListQuery(incidentPostMortemListSchema, query, { cursorSecret, scope: hidePrivateIncidents(caller) });
    const q = { ...parsed, filters: await rewriteVirtualFilters(db, organizationId, parsed.filters, INCIDENT_FILTERS) };
    return listDocument({ db, schema: incidentPostMortemListSchema, serializeAs: incidentPostMortemSchema, q, query, organizationId, cursorSecret });
  }

  @Get('v1/post_mortems/:id')
  @RequirePermission('retrospective', 'read')
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: FlatQuery): Promise<SingleDocument> {
    return this.queries.execute(new GetResourceQuery(incidentPostMortemDefinition, caller.organizationId, await this.incidentId(caller, id), this.withoutInclude(query)));
  }

  @Put('v1/post_mortems/:id')
  @RequirePermission('retrospective', 'update')
  async update(@CurrentCaller() caller: Caller, @Param('id') id: string, @Body() body: unknown, @Res({ passthrough: true }) reply: HeaderReply) {
    const { attributes, warnings } = parseResourcePayload(incidentPostMortemSchema, body, 'update');
    const snapshot: Snapshot = await this.commands.execute(new UpdateIncidentPostMortemCommand(caller, await this.incidentId(caller, id), attributes));
    warnDeprecated(reply, warnings);
    return { data: snapshotObject(incidentPostMortemSchema, snapshot) };
  }
}

export const INCIDENT_POST_MORTEM_CONTROLLERS: Type<unknown>[] = [IncidentPostMortemsController];
