import type { IncidentAccess } from '../../incident-access';
import { IncidentChangeCommand } from '../incident-command';

/** `PUT /v1/incidents/{id}/mitigate`: the incident is mitigated, with an optional message. */
export class MitigateIncidentCommand extends IncidentChangeCommand {
  constructor(
    access: IncidentAccess,
    id: string,
    readonly mitigationMessage?: string | null,
  ) {
    super(access, id);
  }
}
