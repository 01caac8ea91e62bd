import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { AlertChangeHandler } from '../alert-change.handler';
import { SnoozeAlertCommand } from './snooze-alert.command';

@CommandHandler(SnoozeAlertCommand)
export class SnoozeAlertHandler extends AlertChangeHandler {
  execute(c: SnoozeAlertCommand): Promise<ResourceObject> {
    return this.change(c, { kind: 'operation', operation: 'snooze', delayMinutes: c.delayMinutes });
  }
}
