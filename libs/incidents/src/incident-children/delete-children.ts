import { quoteIdent } from '@taproot/persistence';
import { ResourceWriter, type Keep, type WriteContext } from '@taproot/resources';
import { actionItemDefinition } from '../action-items/action-item.schema';
import { incidentEventFunctionalityDefinition, incidentEventServiceDefinition } from '../event-links/event-link.schema';
import { incidentFeedbackDefinition } from '../feedbacks/incident-feedback.schema';
import { FORM_SELECTIONS } from '../forms';
import { incidentSubStatusDefinition } from '../incident-sub-statuses/incident-sub-status.schema';
import { meetingRecordingDefinition } from '../meeting-recordings/meeting-recording.schema';
import { incidentRetrospectiveStepDefinition } from '../retrospectives/incident-retrospective-steps/incident-retrospective-step.schema';

const OF_INCIDENT = 'incident_id = $2';
const OF_ITS_EVENTS = 'incident_event_id IN (SELECT id FROM incident_events WHERE organization_id = $1 AND incident_id = $2)';

/** What lives under an incident, how its rows name the incident, and its writer. */
const CHILDREN = [
  { definition: actionItemDefinition, where: OF_INCIDENT },
  { definition: incidentSubStatusDefinition, where: OF_INCIDENT },
  { definition: incidentEventServiceDefinition, where: OF_ITS_EVENTS },
  { definition: incidentEventFunctionalityDefinition, where: OF_ITS_EVENTS },
  ...FORM_SELECTIONS.map((definition) => ({ definition, where: OF_INCIDENT })),
  { definition: incidentFeedbackDefinition, where: OF_INCIDENT },
  { definition: incidentRetrospectiveStepDefinition, where: OF_INCIDENT },
  // Active sessions too: the incident's delete ends them with it.
  { definition: meetingRecordingDefinition, where: OF_INCIDENT },
].map((child) => ({ ...child, writer: new ResourceWriter(child.definition) }));

/**
 * Deletes the records under an incident through the generic delete, each announced with its
 * `*.deleted` event in the incident's transaction: its action items and sub-status assignments,
 * the service and functionality links of its timeline events (the events go next), its form
 * selections, feedbacks, retrospective steps and meeting recordings.
 */
export async function deleteIncidentChildren(ctx: WriteContext, incidentId: string, keep: Keep): Promise<void> {
  for (const { definition, where, writer } of CHILDREN) {
    const rows = (await ctx.manager.query(`SELECT id FROM ${quoteIdent(definition.table)} WHERE organization_id = $1 AND ${where} ORDER BY created_at, id`, [
      ctx.organizationId,
      incidentId,
    ])) as { id: string }[];
    for (const { id } of rows) keep(await writer.delete(ctx, id));
  }
}
