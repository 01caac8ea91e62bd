import type { Row } from '@taproot/resources';
import type { AlertAccess } from '../../alerts/alert-writes';
import { AlertCommand } from '../../alerts/commands/alert-command';

/** `POST /v1/pages`: page people now: an alert with the page's targets, triggered at once. */
export class CreatePageCommand extends AlertCommand {
  constructor(
    access: AlertAccess,
    readonly attributes: Row,
  ) {
    super(access);
  }
}
