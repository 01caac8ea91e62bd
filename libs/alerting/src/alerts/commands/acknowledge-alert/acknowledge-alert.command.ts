import { AlertChangeCommand } from '../alert-command';

/** `POST /v1/alerts/{id}/acknowledge`: the alert is acknowledged, as far as the state machine allows. */
export class AcknowledgeAlertCommand extends AlertChangeCommand {}
