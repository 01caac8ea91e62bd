import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { JsonApiError, parseResourcePayload, type CollectionDocument, type FlatQuery, type SingleDocument } from '@taproot/json-api';
import { SecretAnswer } from '@taproot/resources';
import {
  apiKeyDocument,
  CreateApiKeyCommand,
  DeleteApiKeyCommand,
  GetApiKeyQuery,
  ListApiKeysQuery,
  RotateApiKeyCommand,
  UpdateApiKeyCommand,
  type ApiKeyResult,
} from './api-key-commands';
import { IMMUTABLE_API_KEY_ATTRIBUTES, newApiKeySchema, rotateApiKeySchema } from './api-key.schema';
import { IdentityErrorCode } from '../errors';

function attributesOf(body: unknown): Record<string, unknown> | null {
  const data = (body as { data?: { attributes?: unknown } } | null | undefined)?.data;
  const attributes = data?.attributes;
  return typeof attributes === 'object' && attributes !== null && !Array.isArray(attributes) ? (attributes as Record<string, unknown>) : null;
}

/**
 * `update_api_key`: `name`, `description`, `expires_at`. The attributes fixed at creation are
 * refused with the reason (reference: revoke the key and create a new one instead); anything
 * else unknown is the generic 422.
 */
function parseUpdate(body: unknown): Record<string, unknown> {
  const sent = attributesOf(body);
  const fixed = IMMUTABLE_API_KEY_ATTRIBUTES.filter((name) => sent && Object.hasOwn(sent, name));
  if (fixed.length > 0) {
    throw JsonApiError.invalidAttributes(
      fixed.map((attribute) => ({
        attribute,
        detail: `${attribute} cannot be changed after creation: revoke the key and create a new one`,
        code: IdentityErrorCode.ImmutableAttribute,
      })),
    );
  }
  return parseResourcePayload(newApiKeySchema, body, 'update').attributes;
}

/** `/v1/api_keys`: thin JSON:API layer over the API key commands and queries. */
@Controller('v1/api_keys')
export class ApiKeysController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @RequirePermission('api_keys', 'read')
  list(@CurrentCaller() principal: Caller, @Query() query: FlatQuery): Promise<CollectionDocument> {
    return this.queries.execute(new ListApiKeysQuery(principal.organizationId, query));
  }

  @Get(':id')
  @RequirePermission('api_keys', 'read')
  get(@CurrentCaller() principal: Caller, @Param('id') id: string): Promise<SingleDocument> {
    return this.queries.execute(new GetApiKeyQuery(principal.organizationId, id));
  }

  /** 201 `api_key_with_token_response`: the only time this token is shown. */
  @Post()
  @RequirePermission('api_keys', 'create')
  @SecretAnswer()
  @HttpCode(201)
  async create(@CurrentCaller() principal: Caller, @Body() body: unknown): Promise<SingleDocument> {
    const { attributes } = parseResourcePayload(newApiKeySchema, body, 'create');
    const result: ApiKeyResult = await this.commands.execute(new CreateApiKeyCommand(principal, attributes));
    return apiKeyDocument(result);
  }

  @Put(':id')
  @RequirePermission('api_keys', 'update')
  async update(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown): Promise<SingleDocument> {
    const result: ApiKeyResult = await this.commands.execute(new UpdateApiKeyCommand(principal, id, parseUpdate(body)));
    return apiKeyDocument(result);
  }

  /** Same as PUT (the spec asks for PATCH beside the reference's PUT). */
  @Patch(':id')
  @RequirePermission('api_keys', 'update')
  patch(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown): Promise<SingleDocument> {
    return this.update(principal, id, body);
  }

  /** Revokes the key: 200 with the revoked key, its token answers 401 from now on. */
  @Delete(':id')
  @RequirePermission('api_keys', 'delete')
  async remove(@CurrentCaller() principal: Caller, @Param('id') id: string): Promise<SingleDocument> {
    const result: ApiKeyResult = await this.commands.execute(new DeleteApiKeyCommand(principal, id));
    return apiKeyDocument(result);
  }

  /** 200 `api_key_with_token_response` with the new token; the body is optional. */
  @Post(':id/rotate')
  @SecretAnswer()
  @HttpCode(200)
  async rotate(@CurrentCaller() principal: Caller, @Param('id') id: string, @Body() body: unknown): Promise<SingleDocument> {
    const payload = body === undefined || body === null ? { data: { type: rotateApiKeySchema.type, attributes: {} } } : body;
    const { attributes } = parseResourcePayload(rotateApiKeySchema, payload, 'update');
    const result: ApiKeyResult = await this.commands.execute(new RotateApiKeyCommand(principal, id, attributes));
    return apiKeyDocument(result);
  }
}
