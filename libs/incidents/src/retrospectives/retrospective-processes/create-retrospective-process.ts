import { CommandHandler } from '@nestjs/cqrs';
import { actorOf, type Caller } from '@taproot/auth';
import { JsonApiError } from '@taproot/json-api';
import type { EventActor } from '@taproot/messaging';
import { ResourceWriteHandler, ResourceWriter, type ResourceWriteCommand, type Row, type Snapshot } from '@taproot/resources';
import { IncidentsErrorCode } from '../../errors';
import { retrospectiveStepDefinition } from '../retrospective-steps/retrospective-step.schema';
import { retrospectiveProcessDefinition, STARTER_TEMPLATE } from './retrospective-process.schema';

/** Taproot's starter steps (the reference names a starter template, not its steps). */
export const STARTER_STEPS: readonly Row[] = [
  { title: 'Schedule the retrospective meeting', due_after_days: 2, skippable: true },
  { title: 'Write the retrospective', due_after_days: 5, skippable: false },
  { title: 'Review the action items', due_after_days: 7, skippable: false },
  { title: 'Publish the retrospective', due_after_days: 10, skippable: false },
];

/** What a copied step keeps of its source. */
const COPIED = ['title', 'description', 'due_after_days', 'incident_role_id', 'position', 'skippable'] as const;

export class CreateRetrospectiveProcessCommand implements ResourceWriteCommand {
  readonly definition = retrospectiveProcessDefinition;
  readonly organizationId: string;
  readonly actor: EventActor;

  /** `attributes`: the validated `new_retrospective_process` attributes, `copy_from` among them. */
  constructor(
    caller: Caller,
    readonly attributes: Row,
  ) {
    this.organizationId = caller.organizationId;
    this.actor = actorOf(caller);
  }
}

const steps = new ResourceWriter(retrospectiveStepDefinition);

/**
 * `POST /v1/retrospective_processes` (reference: createRetrospectiveProcess): the process and a
 * copy of the steps of `copy_from` (another process of the organization, or the starter
 * template), in one transaction with each record's `*.created` event. Groups are not copied.
 */
@CommandHandler(CreateRetrospectiveProcessCommand)
export class CreateRetrospectiveProcessHandler extends ResourceWriteHandler {
  execute(c: CreateRetrospectiveProcessCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => {
      const { copy_from: copyFrom, ...attributes } = c.attributes;
      const source = String(copyFrom);
      let copied: readonly Row[] = STARTER_STEPS;
      if (source !== STARTER_TEMPLATE) {
        const [process] = (await ctx.manager.query('SELECT id FROM retrospective_processes WHERE organization_id = $1 AND id::text = $2', [ctx.organizationId, source.toLowerCase()])) as unknown[];
        if (!process) {
          const detail = `copy_from: ${source} is neither a retrospective process of this organization nor '${STARTER_TEMPLATE}'`;
          throw JsonApiError.invalidAttributes([{ attribute: 'copy_from', detail, code: IncidentsErrorCode.UnknownReference }]);
        }
        copied = (await ctx.manager.query(
          `SELECT ${COPIED.join(', ')} FROM retrospective_steps WHERE organization_id = $1 AND retrospective_process_id = $2 ORDER BY position, created_at, id`,
          [ctx.organizationId, source.toLowerCase()],
        )) as Row[];
      }
      const created = keep(await writer.create(ctx, attributes));
      for (const step of copied) keep(await steps.create(ctx, step, created.id));
      return created;
    });
  }
}
