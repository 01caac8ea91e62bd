import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { actorOf, CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { parseResourcePayload, type CollectionDocument, type SingleDocument } from '@taproot/json-api';
import { CreateResourceCommand, DeleteResourceCommand, GetResourceQuery, ListResourcesQuery, snapshotObject, type FlatQuery, type Snapshot } from '@taproot/resources';
import { verifiedDomainDefinition as definition, verifiedDomainSchema as schema } from './verified-domain.schema';
import { VerifyVerifiedDomainCommand } from './verify-verified-domain/verify-verified-domain.command';

const RECORDS = 'v1/verified_domains';

/**
 * Verified domains (docs/status-pages.md): the spec's POST, GET and DELETE on the generic
 * commands and queries, and the DNS check; no update route (a domain is replaced, not changed),
 * which the generic controller would serve as a 405. Family `status_pages`.
 */
@Controller()
export class VerifiedDomainsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get(RECORDS)
  @RequirePermission('status_pages', 'read')
  list(@CurrentCaller() caller: Caller, @Query() query: FlatQuery): Promise<CollectionDocument> {
    return this.queries.execute(new ListResourcesQuery(definition, caller.organizationId, query));
  }

  @Get(`${RECORDS}/:id`)
  @RequirePermission('status_pages', 'read')
  get(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: FlatQuery): Promise<SingleDocument> {
    return this.queries.execute(new GetResourceQuery(definition, caller.organizationId, id, query));
  }

  @Post(RECORDS)
  @RequirePermission('status_pages', 'create')
  @HttpCode(201)
  async create(@CurrentCaller() caller: Caller, @Body() body: unknown): Promise<SingleDocument> {
    const { attributes } = parseResourcePayload(schema, body, 'create');
    return this.answer(this.commands.execute(new CreateResourceCommand(definition, caller.organizationId, actorOf(caller), attributes)));
  }

  @Delete(`${RECORDS}/:id`)
  @RequirePermission('status_pages', 'delete')
  remove(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<SingleDocument> {
    return this.answer(this.commands.execute(new DeleteResourceCommand(definition, caller.organizationId, actorOf(caller), id)));
  }

  @Post(`${RECORDS}/:id/verify`)
  @HttpCode(200)
  @RequirePermission('status_pages', 'update')
  verify(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<SingleDocument> {
    return this.answer(this.commands.execute(new VerifyVerifiedDomainCommand(caller.organizationId, actorOf(caller), id)));
  }

  private async answer(written: Promise<Snapshot>): Promise<SingleDocument> {
    return { data: snapshotObject(schema, await written) };
  }
}
