import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { parseResourcePayload, type FlatQuery, type ResourceObject } from '@taproot/json-api';
import { IncidentRoutes } from '../incidents/incident-access';
import { incidentEventSchema } from './incident-event.schema';
import { CreateTimelineEventCommand, DeleteTimelineEventCommand, TimelineReader, UpdateTimelineEventCommand } from './timeline';

const single = (data: ResourceObject) => ({ data });

/**
 * Incident timelines: `/v1/incidents/{incident_id}/events` (list, create a note) and
 * `/v1/events/{id}`. Reading needs `read` on incidents; writing a timeline changes the incident,
 * so it needs `update` on incidents.
 */
@Controller('v1')
export class TimelineController extends IncidentRoutes {
  private readonly reader = new TimelineReader(this.dataSource, this.cursorSecret);

  @Get('incidents/:incident_id/events')
  @RequirePermission('incidents', 'read')
  async list(@CurrentCaller() principal: Caller, @Param('incident_id') incidentId: string, @Query() query: FlatQuery) {
    return this.reader.list(this.access(principal), incidentId, query);
  }

  @Post('incidents/:incident_id/events')
  @RequirePermission('incidents', 'update')
  @HttpCode(201)
  async create(@CurrentCaller() principal: Caller, @Param('incident_id') incidentId: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(incidentEventSchema, body, 'create');
    return single(await this.commands.execute(new CreateTimelineEventCommand(this.access(principal), incidentId, attributes)));
  }

  @Get('events/:id')
  @RequirePermission('incidents', 'read')
  async get(@CurrentCaller() principal: Caller, @Param('id') id: string) {
    return this.reader.get(this.access(principal), id);
  }

  @Put('events/:id')
  @RequirePermission('incidents', 'update')
  async update(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(incidentEventSchema, body, 'update');
    return single(await this.commands.execute(new UpdateTimelineEventCommand(this.access(principal), id, attributes)));
  }

  @Delete('events/:id')
  @RequirePermission('incidents', 'update')
  async remove(@CurrentCaller() principal: Caller, @Param('id') id: string) {
    return single(await this.commands.execute(new DeleteTimelineEventCommand(this.access(principal), id)));
  }
}
