import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CurrentCaller, type Caller } from '@taproot/auth';
import { snapshotObject, type Snapshot } from '@taproot/resources';
import { DuplicateDashboardCommand, SetDefaultDashboardCommand } from './dashboard-commands';
import { dashboardSchema } from './dashboard.schema';

/** A dashboard's actions besides its CRUD (the declaration's own controller): duplicate, set as default. */
@Controller('v1/dashboards')
export class DashboardActionsController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/duplicate')
  @HttpCode(201)
  async duplicate(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const snapshot: Snapshot = await this.commands.execute(new DuplicateDashboardCommand(caller, id));
    return { data: snapshotObject(dashboardSchema, snapshot) };
  }

  @Post(':id/set_default')
  @HttpCode(200)
  async setDefault(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const snapshot: Snapshot = await this.commands.execute(new SetDefaultDashboardCommand(caller, id));
    return { data: snapshotObject(dashboardSchema, snapshot) };
  }
}
