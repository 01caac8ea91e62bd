import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { actorOf, AlertCreationLimit, CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { parseResourcePayload } from '@taproot/json-api';
import type { AlertCreated } from '../../alerts/alert-writes';
import { CreatePageCommand } from './create-page.command';
import { pageSchema } from './page.schema';

/** `POST /v1/pages`: 201 with the alert that pages (permission `alerts` create, and the alert creation limit). */
@Controller('v1/pages')
export class PagesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly creationLimit: AlertCreationLimit,
  ) {}

  @Post()
  @RequirePermission('alerts', 'create')
  async create(@CurrentCaller() caller: Caller, @Body() body: unknown) {
    const { attributes } = parseResourcePayload(pageSchema, body, 'create');
    if (caller.apiKeyId) await this.creationLimit.consume({ apiKeyId: caller.apiKeyId });
    const access = { organizationId: caller.organizationId, actor: actorOf(caller), userId: caller.userId === null ? null : String(caller.userId) };
    const created: AlertCreated = await this.commands.execute(new CreatePageCommand(access, attributes));
    return { data: created.alert };
  }
}
