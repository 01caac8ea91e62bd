import type { IncidentAccess } from '../../incident-access';
import { IncidentChangeCommand } from '../incident-command';

/** `PUT /v1/incidents/{id}/cancel`: the incident is cancelled, with an optional message. */
export class CancelIncidentCommand extends IncidentChangeCommand {
  constructor(
    access: IncidentAccess,
    id: string,
    readonly cancellationMessage?: string | null,
  ) {
    super(access, id);
  }
}
