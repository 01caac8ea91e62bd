import type { EventActor } from '@taproot/messaging';
import type { ResourceWriteCommand } from '@taproot/resources';
import { verifiedDomainDefinition } from '../verified-domain.schema';

/** `POST /v1/verified_domains/{id}/verify`: look for the domain's TXT challenge now and record what was found. */
export class VerifyVerifiedDomainCommand implements ResourceWriteCommand {
  readonly definition = verifiedDomainDefinition;

  constructor(
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly id: string,
  ) {}
}
