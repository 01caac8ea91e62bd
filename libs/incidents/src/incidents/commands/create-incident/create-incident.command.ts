import type { Row } from '@taproot/resources';
import type { IncidentAccess } from '../../incident-access';
import { IncidentCommand } from '../incident-command';

/** `POST /v1/incidents`: a new incident from the create's attributes. */
export class CreateIncidentCommand extends IncidentCommand {
  constructor(
    access: IncidentAccess,
    readonly attributes: Row,
  ) {
    super(access);
  }
}
