import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { actorOf, CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { snapshotObject, UpdateResourceCommand, type Snapshot } from '@taproot/resources';
import { onCallPayReportDefinition as definition } from './on-call-pay-report.schema';

/**
 * `POST /v1/on_call_pay_reports/{id}/regenerate`: the report recomputed from the shifts as they
 * are now, with its terms unchanged: an update changing nothing (its rules recompute every
 * update), answered 200 with the report. The list, create, get and PUT are the generic routes.
 */
@Controller('v1/on_call_pay_reports')
export class OnCallPayReportsController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/regenerate')
  @RequirePermission('schedules', 'update')
  @HttpCode(200)
  async regenerate(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const userId = caller.userId === null ? null : String(caller.userId);
    const snapshot: Snapshot = await this.commands.execute(new UpdateResourceCommand(definition, caller.organizationId, actorOf(caller), id, {}, userId));
    return { data: snapshotObject(definition.schema, snapshot) };
  }
}
