import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { ResourceWriteHandler } from '@taproot/resources';
import { announcePulse } from '../../pulse-presenter';
import { UpdatePulseCommand } from './update-pulse.command';

/** Another organization's pulse is a 404 (the writer loads it in the caller's organization). */
@CommandHandler(UpdatePulseCommand)
export class UpdatePulseHandler extends ResourceWriteHandler {
  execute(c: UpdatePulseCommand): Promise<ResourceObject> {
    return this.write(c, async (writer, ctx, keep) => announcePulse(ctx, await writer.update(ctx, c.id, c.attributes), keep));
  }
}
