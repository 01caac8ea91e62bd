import { CommandHandler } from '@nestjs/cqrs';
import { actorOf, type Caller } from '@taproot/auth';
import type { EventActor } from '@taproot/messaging';
import { ResourceWriteHandler, ResourceWriter, type ResourceWriteCommand, type Snapshot } from '@taproot/resources';
import { catalogChecklistTemplateDefinition } from './catalog-checklist-template-definition';
import { catalogEntityChecklistDefinition } from './catalog-entity-checklist-definition';
import { checklistsOf } from './trigger-checklists';

/** `POST /v1/catalog_checklist_templates/{id}/trigger` (id or slug): the checklists it made. */
export class TriggerCatalogChecklistTemplateCommand implements ResourceWriteCommand {
  readonly definition = catalogChecklistTemplateDefinition;
  readonly organizationId: string;
  readonly actor: EventActor;
  readonly userId: string | null;
  constructor(
    caller: Caller,
    readonly id: string,
  ) {
    this.organizationId = caller.organizationId;
    this.actor = actorOf(caller);
    this.userId = caller.userId === null ? null : String(caller.userId);
  }
}

@CommandHandler(TriggerCatalogChecklistTemplateCommand)
export class TriggerCatalogChecklistTemplateHandler extends ResourceWriteHandler {
  execute(c: TriggerCatalogChecklistTemplateCommand): Promise<Snapshot[]> {
    return this.write(c, async (writer, ctx, keep) => {
      // Locked: two triggers at once would both find no open checklist and make two each.
      const template = await writer.load(ctx.manager, ctx.organizationId, c.id, true);
      const checklists = new ResourceWriter(catalogEntityChecklistDefinition);
      const made: Snapshot[] = [];
      for (const input of await checklistsOf(template, ctx)) made.push(keep(await checklists.create(ctx, input)));
      return made;
    });
  }
}
