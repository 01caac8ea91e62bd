import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { AlertChangeHandler } from '../alert-change.handler';
import { EscalateAlertCommand } from './escalate-alert.command';

@CommandHandler(EscalateAlertCommand)
export class EscalateAlertHandler extends AlertChangeHandler {
  execute(c: EscalateAlertCommand): Promise<ResourceObject> {
    return this.change(c, { kind: 'operation', operation: 'escalate', order: c.order });
  }
}
