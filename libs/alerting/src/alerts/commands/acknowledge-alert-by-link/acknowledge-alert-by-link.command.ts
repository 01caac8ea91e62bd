import type { AlertAccess } from '../../alert-writes';
import { AlertChangeCommand } from '../alert-command';

/** The one-click link of a notification (`/v1/alert_acknowledgements/{token}`): its alert is acknowledged, once per link. */
export class AcknowledgeAlertByLinkCommand extends AlertChangeCommand {
  constructor(
    access: AlertAccess,
    alertId: string,
    readonly notificationId: string,
  ) {
    super(access, alertId);
  }
}
