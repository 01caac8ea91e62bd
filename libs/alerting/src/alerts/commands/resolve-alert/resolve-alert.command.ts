import { AlertChangeCommand } from '../alert-command';

/** `POST /v1/alerts/{id}/resolve`: the alert is resolved, as far as the state machine allows. */
export class ResolveAlertCommand extends AlertChangeCommand {}
