import { toResourceObject, type ResourceObject } from '@taproot/json-api';
import { domainEvent } from '@taproot/messaging';
import { ResourceWriteHandler, ResourceWriter, type Keep, type WriteContext, type WriteResult } from '@taproot/resources';
import { incidentEventDefinition } from '../../timeline/incident-event.schema';
import { findIncident } from '../incident-access';
import { linkPlannedAlerts } from '../incident-alerts';
import { IncidentPlan, settle } from '../incident-changes';
import { presentIncident } from '../incident-presenter';
import { incidentStorageSchema } from '../incident.schema';
import type { IncidentChangeCommand } from './incident-command';

/** Timeline rows are written with the incident's changes, in the same transaction. */
const timelineWriter = new ResourceWriter(incidentEventDefinition);

/**
 * Queues a write's events with the incident as the API answers it (embedded records included) as
 * their payload: `incident.created|updated|deleted` from the writer, then `extra` (the moves'
 * own events, e.g. `incident.mitigated`), all with the same snapshot.
 */
export async function announce(ctx: WriteContext, result: WriteResult, extra: readonly string[], keep: Keep): Promise<ResourceObject> {
  const incident = await presentIncident(ctx.manager, ctx.organizationId, result.snapshot);
  const payload = { id: incident.id, ...incident.attributes };
  const [event] = result.events;
  const more = extra.map((type) =>
    domainEvent({ type, organizationId: ctx.organizationId, aggregateType: incident.type, aggregateId: incident.id, actor: ctx.actor, payload, occurredAt: ctx.now }),
  );
  keep({ snapshot: result.snapshot, events: [{ ...event, payload }, ...more] });
  return incident;
}

/** Writes the timeline lines of a plan, each announced as `incident_event.created`. */
export async function writeTrail(ctx: WriteContext, plan: IncidentPlan, keep: Keep): Promise<void> {
  for (const [i, { kind, text }] of plan.trail.entries()) {
    // The lines of one change read in the order they happened (a millisecond apart).
    const occurredAt = new Date(ctx.now.getTime() + i);
    keep(await timelineWriter.create(ctx, { event: text, kind, visibility: 'internal', occurred_at: occurredAt, user_id: plan.access.userId }, plan.id));
  }
}

/** Deletes a timeline line of an incident being deleted, announced as `incident_event.deleted`. */
export async function deleteTrailLine(ctx: WriteContext, id: string, keep: Keep): Promise<void> {
  keep(await timelineWriter.delete(ctx, id));
}

/**
 * THE change of an existing incident, shared by every command that changes one (update, the
 * status moves, duplicates, parent, subscribers, roles, alerts): each command only says what it
 * plans; loading, settling, storing, announcing, the timeline and the alerts' side are the same.
 */
export abstract class IncidentChangeHandler extends ResourceWriteHandler {
  protected change(command: IncidentChangeCommand, decide: (plan: IncidentPlan) => Promise<void>): Promise<ResourceObject> {
    return this.write(command, async (writer, ctx, keep) => {
      const current = await findIncident(ctx.manager, 'incidents', command.access, command.id, true);
      const plan = new IncidentPlan(current, ctx, command.access);
      await decide(plan);
      settle(plan);
      // Nothing to change (a repeated operation, the same values): nothing stored or announced.
      if (Object.keys(plan.changes).length === 0) {
        const { id, attributes } = toResourceObject(incidentStorageSchema, current);
        return presentIncident(ctx.manager, ctx.organizationId, { id, ...attributes });
      }
      const written = await writer.update(ctx, plan.id, plan.changes);
      const incident = await announce(ctx, written, plan.events, keep);
      await writeTrail(ctx, plan, keep);
      await linkPlannedAlerts(plan, written.snapshot, keep);
      return incident;
    });
  }
}
