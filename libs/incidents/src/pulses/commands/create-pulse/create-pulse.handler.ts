import { CommandHandler } from '@nestjs/cqrs';
import type { ResourceObject } from '@taproot/json-api';
import { ResourceWriteHandler } from '@taproot/resources';
import { announcePulse } from '../../pulse-presenter';
import { CreatePulseCommand } from './create-pulse.command';

/** The rules (pulse-rules.ts) run in the writer, in the command's transaction. */
@CommandHandler(CreatePulseCommand)
export class CreatePulseHandler extends ResourceWriteHandler {
  execute(c: CreatePulseCommand): Promise<ResourceObject> {
    return this.write(c, async (writer, ctx, keep) => announcePulse(ctx, await writer.create(ctx, c.attributes), keep));
  }
}
