import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { AlertChangeHandler } from '../alert-change.handler';
import { ResolveAlertCommand } from './resolve-alert.command';

@CommandHandler(ResolveAlertCommand)
export class ResolveAlertHandler extends AlertChangeHandler {
  execute(c: ResolveAlertCommand): Promise<ResourceObject> {
    return this.change(c, { kind: 'operation', operation: 'resolve', resolution: c.resolution });
  }
}
