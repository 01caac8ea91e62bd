import type { EventActor } from '@taproot/messaging';
import type { ResourceWriteCommand, Row } from '@taproot/resources';
import { pulseDefinition } from '../../pulse.schema';

/** `POST /v1/pulses`: records a deploy or change event, announced as `pulse.created`. */
export class CreatePulseCommand implements ResourceWriteCommand {
  readonly definition = pulseDefinition;
  constructor(
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly attributes: Row,
  ) {}
}
