import type { EventActor } from '@taproot/messaging';
import type { ResourceWriteCommand, Row } from '@taproot/resources';
import { pulseDefinition } from '../../pulse.schema';

/** `PUT /v1/pulses/{id}`: changes what is sent of a pulse of the organization, announced as `pulse.updated`. */
export class UpdatePulseCommand implements ResourceWriteCommand {
  readonly definition = pulseDefinition;
  constructor(
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly id: string,
    readonly attributes: Row,
  ) {}
}
