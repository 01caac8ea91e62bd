import { Body, Controller, HttpCode, Post, Res, type Type } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { parseResourcePayload } from '@taproot/json-api';
import { resourceController, snapshotObject, warnDeprecated, type HeaderReply, type Snapshot } from '@taproot/resources';
import { CreateRetrospectiveProcessCommand } from './create-retrospective-process';
import { retrospectiveProcessDefinition, retrospectiveProcessSchema } from './retrospective-process.schema';

type GenericController = new (commands: CommandBus, ...rest: never[]) => { readonly commands: CommandBus };

/**
 * The generic routes of retrospective processes, but for the create: it copies steps
 * (`copy_from`), a command of its own.
 */
@Controller()
export class RetrospectiveProcessesController extends (resourceController(retrospectiveProcessDefinition) as GenericController) {
  @Post('v1/retrospective_processes')
  @RequirePermission('retrospective', 'create')
  @HttpCode(201)
  async create(@CurrentCaller() caller: Caller, @Body() body: unknown, @Res({ passthrough: true }) reply: HeaderReply) {
    const { attributes, warnings } = parseResourcePayload(retrospectiveProcessSchema, body, 'create');
    const snapshot: Snapshot = await this.commands.execute(new CreateRetrospectiveProcessCommand(caller, attributes));
    warnDeprecated(reply, warnings);
    return { data: snapshotObject(retrospectiveProcessSchema, snapshot) };
  }
}

export const RETROSPECTIVE_PROCESS_CONTROLLERS: Type<unknown>[] = [RetrospectiveProcessesController];
