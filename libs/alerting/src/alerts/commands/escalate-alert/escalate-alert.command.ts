import type { AlertAccess } from '../../alert-writes';
import type { PagingOrder } from '../../../paging/paging-schedule';
import { AlertChangeCommand } from '../alert-command';

/** `POST /v1/alerts/{id}/escalate`: the alert is escalated, to the next level or the policy and level `order` names. */
export class EscalateAlertCommand extends AlertChangeCommand {
  constructor(
    access: AlertAccess,
    id: string,
    readonly order: PagingOrder = {},
  ) {
    super(access, id);
  }
}
