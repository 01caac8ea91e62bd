import type { Row } from '@taproot/resources';
import type { AlertAccess } from '../../alert-writes';
import { AlertCommand } from '../alert-command';

/** `POST /v1/alerts`: a new alert, or the unresolved alert with its deduplication key refreshed. */
export class CreateAlertCommand extends AlertCommand {
  constructor(
    access: AlertAccess,
    readonly attributes: Row,
  ) {
    super(access);
  }
}
