import type { AlertAccess, Resolution } from '../../alert-writes';
import { AlertChangeCommand } from '../alert-command';

/** `POST /v1/alerts/{id}/resolve`: the alert is resolved, as far as the state machine allows; the message goes on its timeline. */
export class ResolveAlertCommand extends AlertChangeCommand {
  constructor(
    access: AlertAccess,
    id: string,
    readonly resolution: Resolution = { message: null, relatedIncidents: false },
  ) {
    super(access, id);
  }
}
