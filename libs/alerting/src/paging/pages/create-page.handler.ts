import { CommandHandler } from '@nestjs/cqrs';
import { pagingTargetsOf } from '@taproot/catalog';
import { JsonApiError } from '@taproot/json-api';
import { ResourceWriteHandler, type Row } from '@taproot/resources';
import { createAlert, recordAlertEvent, type AlertCreated } from '../../alerts/alert-writes';
import { AlertingErrorCode } from '../../errors';
import { CreatePageCommand } from './create-page.command';
import { PAGE_TARGETS } from './page-targets';

/**
 * A page is an alert that names whom to page (docs/paging.md): each target attribute becomes an
 * entry of `notification_targets`. A functionality is pageable only with an escalation policy;
 * paging it sets the alert's functionality, adds its owning teams, and says so on the timeline
 * (spec: Functionality paging).
 */
@CommandHandler(CreatePageCommand)
export class CreatePageHandler extends ResourceWriteHandler {
  execute(c: CreatePageCommand): Promise<AlertCreated> {
    return this.write(c, async (writer, ctx, keep) => {
      const { summary, description, alert_urgency_id, notification_targets } = c.attributes;
      const targets = [...((notification_targets as Row[] | undefined) ?? [])];
      for (const [attribute, type] of Object.entries(PAGE_TARGETS)) if (c.attributes[attribute] != null) targets.push({ type, id: String(c.attributes[attribute]) });
      if (targets.length === 0) throw JsonApiError.invalidAttributes([{ attribute: 'notification_targets', detail: `notification_targets: name whom to page (${[...Object.keys(PAGE_TARGETS), 'notification_targets'].join(', ')})`, code: AlertingErrorCode.InvalidValue }]);
      const alert: Row = { summary, description: description ?? null, alert_urgency_id: alert_urgency_id ?? null, notification_targets: targets, status: 'triggered' };
      const functionalityId = c.attributes.functionality_id == null ? null : String(c.attributes.functionality_id).toLowerCase();
      let functionality: { escalationPolicyId: string | null; owningTeamIds: string[] } | undefined;
      if (functionalityId) {
        functionality = (await pagingTargetsOf(ctx.manager, ctx.organizationId, 'functionalities', [functionalityId])).get(functionalityId);
        if (functionality && !functionality.escalationPolicyId) {
          throw JsonApiError.invalidAttributes([{ attribute: 'functionality_id', detail: `functionality_id: functionality ${functionalityId} has no escalation policy, so it cannot be paged`, code: AlertingErrorCode.InvalidValue }]);
        }
        // An unknown id is left to the alert's own check, which names it.
        if (functionality) Object.assign(alert, { functionality_ids: [functionalityId], group_ids: functionality.owningTeamIds });
      }
      const created = await createAlert(writer, ctx, keep, c.access, alert);
      if (functionality) {
        const teams = functionality.owningTeamIds.length ? `; its owning teams ${functionality.owningTeamIds.join(', ')} were added` : '';
        await recordAlertEvent(ctx, c.access, created.alert.id, 'informational', 'paged', `Paged functionality ${functionalityId}${teams}`, keep);
      }
      return created;
    });
  }
}
