import { AcknowledgeAlertHandler } from './acknowledge-alert/acknowledge-alert.handler';
import { AcknowledgeAlertByLinkHandler } from './acknowledge-alert-by-link/acknowledge-alert-by-link.handler';
import { CreateAlertHandler } from './create-alert/create-alert.handler';
import { EscalateAlertHandler } from './escalate-alert/escalate-alert.handler';
import { ResolveAlertHandler } from './resolve-alert/resolve-alert.handler';
import { SnoozeAlertHandler } from './snooze-alert/snooze-alert.handler';
import { UpdateAlertHandler } from './update-alert/update-alert.handler';

export { AlertChangeCommand } from './alert-command';
export { AcknowledgeAlertCommand } from './acknowledge-alert/acknowledge-alert.command';
export { AcknowledgeAlertByLinkCommand } from './acknowledge-alert-by-link/acknowledge-alert-by-link.command';
export { CreateAlertCommand } from './create-alert/create-alert.command';
export { EscalateAlertCommand } from './escalate-alert/escalate-alert.command';
export { ResolveAlertCommand } from './resolve-alert/resolve-alert.command';
export { SnoozeAlertCommand } from './snooze-alert/snooze-alert.command';
export { UpdateAlertCommand } from './update-alert/update-alert.command';

/** A handler per task on alerts; the ingestion of alert sources registers its own. */
export const ALERT_COMMAND_HANDLERS = [CreateAlertHandler, UpdateAlertHandler, AcknowledgeAlertHandler, ResolveAlertHandler, SnoozeAlertHandler, EscalateAlertHandler, AcknowledgeAlertByLinkHandler];
