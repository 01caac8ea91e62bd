import type { ResourceObject } from '@taproot/json-api';
import { ResourceWriteHandler } from '@taproot/resources';
import { changeAlert, type AlertChange } from '../alert-writes';
import type { AlertChangeCommand } from './alert-command';

/**
 * The handlers of the alert's changes say only which change they are; `changeAlert` (shared with
 * the ingestion's resolving items) decides and writes it.
 */
export abstract class AlertChangeHandler extends ResourceWriteHandler {
  protected change(command: AlertChangeCommand, change: AlertChange): Promise<ResourceObject> {
    return this.write(command, (writer, ctx, keep) => changeAlert(writer, ctx, keep, command.access, command.id, change));
  }
}
