import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { AlertChangeHandler } from '../alert-change.handler';
import { UpdateAlertCommand } from './update-alert.command';

@CommandHandler(UpdateAlertCommand)
export class UpdateAlertHandler extends AlertChangeHandler {
  execute(c: UpdateAlertCommand): Promise<ResourceObject> {
    return this.change(c, { kind: 'update', attributes: c.attributes });
  }
}
