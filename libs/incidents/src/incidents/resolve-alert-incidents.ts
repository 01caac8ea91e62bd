import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { AlertIncidentResolver } from '@taproot/alerting';
import type { Caller } from '@taproot/auth';
import { DomainError, JsonApiError } from '@taproot/json-api';
import { ResolveIncidentCommand } from './commands';
import { incidentAccess } from './incident-access';

/** `resolve_related_incidents`: each incident resolved by its own command, as the caller. */
@Injectable()
export class ResolveAlertIncidents implements AlertIncidentResolver {
  constructor(private readonly commands: CommandBus) {}

  async resolve(principal: Caller, ids: readonly string[], message: string | null): Promise<void> {
    const access = incidentAccess(principal);
    for (const id of ids) {
      try {
        await this.commands.execute(new ResolveIncidentCommand(access, id, message));
      } catch (error) {
        // A refusal (a cancelled incident, one the caller cannot see) leaves that incident alone; the alert is resolved.
        if (!(error instanceof JsonApiError || error instanceof DomainError)) throw error;
      }
    }
  }
}
