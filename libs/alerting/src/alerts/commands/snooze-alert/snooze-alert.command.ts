import type { AlertAccess } from '../../alert-writes';
import { AlertChangeCommand } from '../alert-command';

/** `POST /v1/alerts/{id}/snooze`: the alert is deferred for `delay_minutes` (checked by the state machine). */
export class SnoozeAlertCommand extends AlertChangeCommand {
  constructor(
    access: AlertAccess,
    id: string,
    readonly delayMinutes: unknown,
  ) {
    super(access, id);
  }
}
