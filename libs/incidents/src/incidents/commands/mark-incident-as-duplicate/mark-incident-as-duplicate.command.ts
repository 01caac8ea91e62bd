import type { IncidentAccess } from '../../incident-access';
import { IncidentChangeCommand } from '../incident-command';

/** `PUT /v1/incidents/{id}/duplicate`: the incident duplicates `originalId` (uuid or slug) and is resolved. */
export class MarkIncidentAsDuplicateCommand extends IncidentChangeCommand {
  constructor(
    access: IncidentAccess,
    id: string,
    readonly originalId: string,
    readonly resolutionMessage?: string | null,
  ) {
    super(access, id);
  }
}
