import type { IncidentAccess } from '../../incident-access';
import { IncidentChangeCommand } from '../incident-command';

/** `PUT /v1/incidents/{id}/resolve`: the incident is resolved, with an optional message. */
export class ResolveIncidentCommand extends IncidentChangeCommand {
  constructor(
    access: IncidentAccess,
    id: string,
    readonly resolutionMessage?: string | null,
  ) {
    super(access, id);
  }
}
