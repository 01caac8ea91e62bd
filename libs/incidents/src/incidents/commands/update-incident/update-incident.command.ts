import type { Row } from '@taproot/resources';
import type { IncidentAccess } from '../../incident-access';
import { IncidentChangeCommand } from '../incident-command';

/** `PUT /v1/incidents/{id}`: the attributes sent, `status`, parent and original included. */
export class UpdateIncidentCommand extends IncidentChangeCommand {
  constructor(
    access: IncidentAccess,
    id: string,
    readonly attributes: Row,
  ) {
    super(access, id);
  }
}
