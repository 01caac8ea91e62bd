import { CreateIncidentHandler } from './create-incident/create-incident.handler';
import { UpdateIncidentHandler } from './update-incident/update-incident.handler';
import { DeleteIncidentHandler } from './delete-incident/delete-incident.handler';
import { MitigateIncidentHandler } from './mitigate-incident/mitigate-incident.handler';
import { ResolveIncidentHandler } from './resolve-incident/resolve-incident.handler';
import { CancelIncidentHandler } from './cancel-incident/cancel-incident.handler';
import { TriageIncidentHandler } from './triage-incident/triage-incident.handler';
import { RestartIncidentHandler } from './restart-incident/restart-incident.handler';
import { MarkIncidentAsDuplicateHandler } from './mark-incident-as-duplicate/mark-incident-as-duplicate.handler';
import { UnmarkIncidentAsDuplicateHandler } from './unmark-incident-as-duplicate/unmark-incident-as-duplicate.handler';
import { DetachIncidentFromParentHandler } from './detach-incident-from-parent/detach-incident-from-parent.handler';
import { AddIncidentSubscribersHandler } from './add-incident-subscribers/add-incident-subscribers.handler';
import { RemoveIncidentSubscribersHandler } from './remove-incident-subscribers/remove-incident-subscribers.handler';
import { AssignIncidentRoleHandler } from './assign-incident-role/assign-incident-role.handler';
import { UnassignIncidentRoleHandler } from './unassign-incident-role/unassign-incident-role.handler';
import { AttachAlertsToIncidentHandler } from './attach-alerts-to-incident/attach-alerts-to-incident.handler';
import { DetachAlertFromIncidentHandler } from './detach-alert-from-incident/detach-alert-from-incident.handler';

export { CreateIncidentCommand } from './create-incident/create-incident.command';
export { UpdateIncidentCommand } from './update-incident/update-incident.command';
export { DeleteIncidentCommand } from './delete-incident/delete-incident.command';
export { MitigateIncidentCommand } from './mitigate-incident/mitigate-incident.command';
export { ResolveIncidentCommand } from './resolve-incident/resolve-incident.command';
export { CancelIncidentCommand } from './cancel-incident/cancel-incident.command';
export { TriageIncidentCommand } from './triage-incident/triage-incident.command';
export { RestartIncidentCommand } from './restart-incident/restart-incident.command';
export { MarkIncidentAsDuplicateCommand } from './mark-incident-as-duplicate/mark-incident-as-duplicate.command';
export { UnmarkIncidentAsDuplicateCommand } from './unmark-incident-as-duplicate/unmark-incident-as-duplicate.command';
export { DetachIncidentFromParentCommand } from './detach-incident-from-parent/detach-incident-from-parent.command';
export { AddIncidentSubscribersCommand } from './add-incident-subscribers/add-incident-subscribers.command';
export { RemoveIncidentSubscribersCommand } from './remove-incident-subscribers/remove-incident-subscribers.command';
export { AssignIncidentRoleCommand } from './assign-incident-role/assign-incident-role.command';
export { UnassignIncidentRoleCommand } from './unassign-incident-role/unassign-incident-role.command';
export { AttachAlertsToIncidentCommand } from './attach-alerts-to-incident/attach-alerts-to-incident.command';
export { DetachAlertFromIncidentCommand } from './detach-alert-from-incident/detach-alert-from-incident.command';

/** A handler per task on incidents; the import registers its own (incident-import.ts). */
export const INCIDENT_COMMAND_HANDLERS = [
  CreateIncidentHandler,
  UpdateIncidentHandler,
  DeleteIncidentHandler,
  MitigateIncidentHandler,
  ResolveIncidentHandler,
  CancelIncidentHandler,
  TriageIncidentHandler,
  RestartIncidentHandler,
  MarkIncidentAsDuplicateHandler,
  UnmarkIncidentAsDuplicateHandler,
  DetachIncidentFromParentHandler,
  AddIncidentSubscribersHandler,
  RemoveIncidentSubscribersHandler,
  AssignIncidentRoleHandler,
  UnassignIncidentRoleHandler,
  AttachAlertsToIncidentHandler,
  DetachAlertFromIncidentHandler,
];
export { IncidentCommand, IncidentChangeCommand } from './incident-command';
