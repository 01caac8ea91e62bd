import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { ALERT_INCIDENT_RESOLVER, ALERT_INCIDENTS } from '@taproot/alerting';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { actionItemDefinition } from './action-items/action-item.schema';
import { incidentEventFunctionalityDefinition, incidentEventServiceDefinition } from './event-links/event-link.schema';
import { FORMS_RESOURCES } from './forms';
import { incidentRoleDefinition } from './incident-roles/incident-role.schema';
import { incidentSubStatusDefinition } from './incident-sub-statuses/incident-sub-status.schema';
import { incidentRoleTaskDefinition } from './incident-role-tasks/incident-role-task.schema';
import { INCIDENT_COMMAND_HANDLERS } from './incidents/commands';
import { ImportIncidentsHandler } from './incidents/incident-import';
import { incidentDefinition } from './incidents/incident.schema';
import { IncidentAlertsController } from './incidents/incident-alerts.controller';
import { IncidentsOfAlerts } from './incidents/incidents-of-alerts';
import { ResolveAlertIncidents } from './incidents/resolve-alert-incidents';
import { IncidentsController } from './incidents/incidents.controller';
import { subStatusDefinition } from './sub-statuses/sub-status.schema';
import { incidentEventDefinition } from './timeline/incident-event.schema';
import { TIMELINE_COMMAND_HANDLERS } from './timeline/timeline';
import { TimelineController } from './timeline/timeline.controller';
import { incidentFeedbackDefinition } from './feedbacks/incident-feedback.schema';
import { MEETING_RECORDING_HANDLERS, meetingRecordingDefinition, MeetingRecordingsController } from './meeting-recordings/meeting-recordings';
import { COMMUNICATIONS_RESOURCES } from './communications/communications';
import { PLAYBOOK_RESOURCES } from './playbooks/playbooks';
import { PULSE_HANDLERS, pulseDefinition, PulsesController } from './pulses/pulses';
import { slaDefinition } from './slas/sla.schema';
import { RETROSPECTIVE_CONTROLLERS, RETROSPECTIVE_HANDLERS, RETROSPECTIVE_PROCESS_CONTROLLERS, RETROSPECTIVE_RESOURCES, retrospectiveProcessDefinition } from './retrospectives/retrospectives';

export const INCIDENTS_RESOURCES = [
  subStatusDefinition,
  incidentRoleDefinition,
  incidentRoleTaskDefinition,
  actionItemDefinition,
  incidentSubStatusDefinition,
  incidentEventServiceDefinition,
  incidentEventFunctionalityDefinition,
  ...RETROSPECTIVE_RESOURCES,
  ...FORMS_RESOURCES,
  incidentFeedbackDefinition,
  slaDefinition,
  ...PLAYBOOK_RESOURCES,
  ...COMMUNICATIONS_RESOURCES,
];

/**
 * The incidents context: the incident lifecycle and what responders fill in (sub-statuses, roles,
 * action items). Global for the alerting context's ports: ALERT_INCIDENTS and ALERT_INCIDENT_RESOLVER.
 */
@Global()
@Module({
  controllers: [...INCIDENTS_RESOURCES.map((definition) => resourceController(definition)), IncidentsController, IncidentAlertsController, TimelineController, ...RETROSPECTIVE_PROCESS_CONTROLLERS, ...RETROSPECTIVE_CONTROLLERS, MeetingRecordingsController, PulsesController],
  providers: [...INCIDENT_COMMAND_HANDLERS, ImportIncidentsHandler, ...TIMELINE_COMMAND_HANDLERS, ...RETROSPECTIVE_HANDLERS, ...MEETING_RECORDING_HANDLERS, ...PULSE_HANDLERS, { provide: ALERT_INCIDENTS, useClass: IncidentsOfAlerts },
    { provide: ALERT_INCIDENT_RESOLVER, useClass: ResolveAlertIncidents },
  ],
  exports: [ALERT_INCIDENTS, ALERT_INCIDENT_RESOLVER],
})
export class IncidentsModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    // Incidents and their timelines keep their read models the generic way (their snapshots are full).
    for (const definition of [...INCIDENTS_RESOURCES, retrospectiveProcessDefinition, meetingRecordingDefinition, pulseDefinition, incidentDefinition, incidentEventDefinition]) this.projections.inline(new ResourceListProjection(definition));
  }
}
