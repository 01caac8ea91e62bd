import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { parseResourcePayload, type CollectionDocument, type FlatQuery, type SingleDocument } from '@taproot/json-api';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { SecretAnswer } from '@taproot/resources';
import {
  CreateOAuthApplicationCommand,
  GetOAuthApplicationQuery,
  ListOAuthApplicationsQuery,
  RevokeOAuthApplicationCommand,
  RotateOAuthApplicationSecretCommand,
  UpdateOAuthApplicationCommand,
} from './application-commands';
import { newOAuthApplicationSchema, oauthApplicationSchema } from './application.schema';
import type { ApplicationResult } from './applications';

/**
 * `/v1/oauth_applications`: the organization's OAuth applications, for administrators. Managing
 * machine credentials is what the `api_keys` permission family already governs (only the seeded
 * Owner and Admin roles hold it; docs/permissions.md), so these routes check it too.
 */
@Controller('v1/oauth_applications')
export class OAuthApplicationsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @RequirePermission('api_keys', 'read')
  list(@CurrentCaller() principal: Caller, @Query() query: FlatQuery): Promise<CollectionDocument> {
    return this.queries.execute(new ListOAuthApplicationsQuery(principal.organizationId, query));
  }

  @Get(':id')
  @RequirePermission('api_keys', 'read')
  get(@CurrentCaller() principal: Caller, @Param('id') id: string): Promise<SingleDocument> {
    return this.queries.execute(new GetOAuthApplicationQuery(principal.organizationId, id));
  }

  /** 201 with `client_secret`: the only time it is shown. */
  @Post()
  @RequirePermission('api_keys', 'create')
  @SecretAnswer()
  @HttpCode(201)
  async create(@CurrentCaller() principal: Caller, @Body() body: unknown): Promise<SingleDocument> {
    const { attributes } = parseResourcePayload(newOAuthApplicationSchema, body, 'create');
    const result: ApplicationResult = await this.commands.execute(new CreateOAuthApplicationCommand(principal, attributes));
    return result.document;
  }

  @Put(':id')
  @RequirePermission('api_keys', 'update')
  async update(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown): Promise<SingleDocument> {
    const { attributes } = parseResourcePayload(oauthApplicationSchema, body, 'update');
    const result: ApplicationResult = await this.commands.execute(new UpdateOAuthApplicationCommand(principal, id, attributes));
    return result.document;
  }

  /** Same as PUT. */
  @Patch(':id')
  @RequirePermission('api_keys', 'update')
  patch(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown): Promise<SingleDocument> {
    return this.update(principal, id, body);
  }

  /** Revokes the application: 200 with it (`revoked_at` set); the provider refuses the client from now on. */
  @Delete(':id')
  @RequirePermission('api_keys', 'delete')
  async revoke(@CurrentCaller() principal: Caller, @Param('id') id: string): Promise<SingleDocument> {
    const result: ApplicationResult = await this.commands.execute(new RevokeOAuthApplicationCommand(principal, id));
    return result.document;
  }

  /** 200 with the new `client_secret`, shown once; the old one stops working at once. */
  @Post(':id/rotate_secret')
  @SecretAnswer()
  @RequirePermission('api_keys', 'update')
  @HttpCode(200)
  async rotateSecret(@CurrentCaller() principal: Caller, @Param('id') id: string): Promise<SingleDocument> {
    const result: ApplicationResult = await this.commands.execute(new RotateOAuthApplicationSecretCommand(principal, id));
    return result.document;
  }
}
