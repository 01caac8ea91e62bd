import { AlertChangeCommand } from '../alert-command';

/** `POST /v1/alerts/{id}/escalate`: the alert is escalated, as far as the state machine allows. */
export class EscalateAlertCommand extends AlertChangeCommand {}
