import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import type { CollectionDocument, SingleDocument } from '@taproot/json-api';
import { GetResourceQuery, ListResourcesQuery, type FlatQuery } from '@taproot/resources';
import { statusDefinition as definition } from './status.schema';

/** `GET /v1/statuses[/{id}]`: the read path only (the generic controller would also route the writes statuses do not have). */
@Controller()
export class StatusesController {
  constructor(private readonly queries: QueryBus) {}

  @Get('v1/statuses')
  @RequirePermission('status_pages', 'read')
  list(@CurrentCaller() caller: Caller, @Query() query: FlatQuery): Promise<CollectionDocument> {
    return this.queries.execute(new ListResourcesQuery(definition, caller.organizationId, query));
  }

  @Get('v1/statuses/:id')
  @RequirePermission('status_pages', 'read')
  get(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: FlatQuery): Promise<SingleDocument> {
    return this.queries.execute(new GetResourceQuery(definition, caller.organizationId, id, query));
  }
}
