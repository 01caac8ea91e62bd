import { Body, Controller, Get, Param, Put, Query, Res, type Type } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { JsonApiError, parseResourcePayload, type SingleDocument } from '@taproot/json-api';
import { GetResourceQuery, ListResourcesQuery, snapshotObject, warnDeprecated, type FlatQuery, type HeaderReply, type Snapshot } from '@taproot/resources';
import { DataSource } from 'typeorm';
import { findIncident, incidentAccess } from '../../incidents/incident-access';
import { hidePrivateIncidents } from '../../incident-children/incident-parent';
import { incidentPostMortemDefinition, incidentPostMortemSchema } from './incident-post-mortem.schema';
import { UpdateIncidentPostMortemCommand } from './update-incident-post-mortem';

/**
 * The post mortems' routes (docs/retrospectives.md): the generic list and get queries, seen as
 * their incidents are (a private incident's is missing for callers who may not read private
 * incidents), and a PUT that upserts (`UpdateIncidentPostMortemCommand`). Not the generic
 * controller: a post mortem's id is its incident's uuid or slug, and its PUT upserts.
 */
@Controller()
export class IncidentPostMortemsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly dataSource: DataSource,
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
  list(@CurrentCaller() caller: Caller, @Query() query: FlatQuery) {
    return this.queries.execute(new ListResourcesQuery(incidentPostMortemDefinition, caller.organizationId, this.withoutInclude(query), undefined, hidePrivateIncidents(caller)));
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
