import { CommandHandler } from '@nestjs/cqrs';
import { JsonApiError, type ResourceObject } from '@taproot/json-api';
import { changeAlert } from '../../alert-writes';
import { AlertChangeHandler } from '../alert-change.handler';
import { AcknowledgeAlertByLinkCommand } from './acknowledge-alert-by-link.command';

@CommandHandler(AcknowledgeAlertByLinkCommand)
export class AcknowledgeAlertByLinkHandler extends AlertChangeHandler {
  /** The link is spent in the acknowledgement's transaction: a refused acknowledgement leaves it unused. */
  execute(c: AcknowledgeAlertByLinkCommand): Promise<ResourceObject> {
    return this.write(c, async (writer, ctx, keep) => {
      // The alert first, then the notification: the order every alert change and the paging engine
      // take them in, so spending a link never deadlocks with recording a send.
      await ctx.manager.query('SELECT id FROM alerts WHERE id = $1 AND organization_id = $2 FOR UPDATE', [c.id, c.organizationId]);
      const [spent] = (await ctx.manager.query(
        'UPDATE alert_notifications SET link_used_at = $3 WHERE id = $1 AND organization_id = $2 AND link_used_at IS NULL RETURNING id',
        [c.notificationId, c.organizationId, ctx.now],
      )) as [{ id: string }[], number];
      if (spent.length === 0) throw JsonApiError.of(410, 'Link already used', 'This acknowledge link has been used; acknowledge the alert in Taproot instead', 'ACKNOWLEDGE_LINK_USED');
      return changeAlert(writer, ctx, keep, c.access, c.id, { kind: 'operation', operation: 'acknowledge' });
    });
  }
}
