import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { snapshotObject, type Snapshot } from '@taproot/resources';
import { catalogEntityChecklistSchema } from './catalog-entity-checklist.schema';
import { TriggerCatalogChecklistTemplateCommand } from './trigger-catalog-checklist-template';

/** A template's action besides its CRUD (the declaration's own controller): trigger. */
@Controller('v1/catalog_checklist_templates')
export class CatalogChecklistTemplateActionsController {
  constructor(private readonly commands: CommandBus) {}

  /** 202 as the hosted API answers; the body lists the checklists this trigger made (none: every record has an open one). */
  @Post(':id/trigger')
  @HttpCode(202)
  @RequirePermission('catalogs', 'create')
  async trigger(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const made: Snapshot[] = await this.commands.execute(new TriggerCatalogChecklistTemplateCommand(caller, id));
    return { data: made.map((snapshot) => snapshotObject(catalogEntityChecklistSchema, snapshot)) };
  }
}
