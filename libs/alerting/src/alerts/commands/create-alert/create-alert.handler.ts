import { CommandHandler } from '@nestjs/cqrs';
import { ResourceWriteHandler } from '@taproot/resources';
import { createAlert, type AlertCreated } from '../../alert-writes';
import { CreateAlertCommand } from './create-alert.command';

@CommandHandler(CreateAlertCommand)
export class CreateAlertHandler extends ResourceWriteHandler {
  execute(c: CreateAlertCommand): Promise<AlertCreated> {
    return this.write(c, (writer, ctx, keep) => createAlert(writer, ctx, keep, c.access, c.attributes));
  }
}
