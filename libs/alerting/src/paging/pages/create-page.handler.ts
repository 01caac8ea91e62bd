import { CommandHandler } from '@nestjs/cqrs';
import { JsonApiError } from '@taproot/json-api';
import { ResourceWriteHandler, type Row } from '@taproot/resources';
import { createAlert, recordAlertEvent, type AlertCreated } from '../../alerts/alert-writes';
import { AlertingErrorCode } from '../../errors';
import { CreatePageCommand } from './create-page.command';
import { PAGE_TARGETS, pageableFunctionalities, pageTargetsOf, requirePageTargets } from './page-targets';

/**
 * A page is an alert that names whom to page (docs/paging.md): each target attribute becomes an
 * entry of `notification_targets`. A functionality is pageable only with an escalation policy;
 * paging it sets the alert's functionality, adds its owning teams, and says so on the timeline
 * (spec: Functionality paging), whether it was named by `functionality_id` or in `notification_targets`.
 */
@CommandHandler(CreatePageCommand)
export class CreatePageHandler extends ResourceWriteHandler {
  execute(c: CreatePageCommand): Promise<AlertCreated> {
    return this.write(c, async (writer, ctx, keep) => {
      const { summary, description, alert_urgency_id } = c.attributes;
      const targets = pageTargetsOf(c.attributes);
      if (targets.length === 0) throw JsonApiError.invalidAttributes([{ attribute: 'notification_targets', detail: `notification_targets: name whom to page (${[...Object.keys(PAGE_TARGETS), 'notification_targets'].join(', ')})`, code: AlertingErrorCode.InvalidValue }]);
      // Checked here so that a refusal names the attribute sent; the alert's own check (createAlert) then finds nothing.
      await requirePageTargets(ctx, targets);
      const functionalities = await pageableFunctionalities(ctx, targets);
      const alert: Row = { summary, description: description ?? null, alert_urgency_id: alert_urgency_id ?? null, notification_targets: targets.map((t) => t.target), status: 'triggered' };
      if (functionalities.size) Object.assign(alert, { functionality_ids: [...functionalities.keys()], group_ids: [...new Set([...functionalities.values()].flat())] });
      const created = await createAlert(writer, ctx, keep, c.access, alert);
      for (const [id, owners] of functionalities) {
        const teams = owners.length ? `; its owning teams ${owners.join(', ')} were added` : '';
        await recordAlertEvent(ctx, c.access, created.alert.id, 'informational', 'paged', `Paged functionality ${id}${teams}`, keep);
      }
      return created;
    });
  }
}
