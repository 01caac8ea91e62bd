import type { Row } from '@taproot/resources';
import type { AlertAccess } from '../../alert-writes';
import { AlertChangeCommand } from '../alert-command';

/** `PATCH /v1/alerts/{id}`: the attributes sent; a `status` among them moves the alert like an operation. */
export class UpdateAlertCommand extends AlertChangeCommand {
  constructor(
    access: AlertAccess,
    id: string,
    readonly attributes: Row,
  ) {
    super(access, id);
  }
}
