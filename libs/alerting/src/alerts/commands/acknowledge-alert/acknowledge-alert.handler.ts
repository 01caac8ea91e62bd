import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { AlertChangeHandler } from '../alert-change.handler';
import { AcknowledgeAlertCommand } from './acknowledge-alert.command';

@CommandHandler(AcknowledgeAlertCommand)
export class AcknowledgeAlertHandler extends AlertChangeHandler {
  execute(c: AcknowledgeAlertCommand): Promise<ResourceObject> {
    return this.change(c, { kind: 'operation', operation: 'acknowledge' });
  }
}
