import { CommandHandler } from '@nestjs/cqrs';
import { existingUserIds } from '@taproot/identity';
import { JsonApiError, toResourceObject, type ResourceObject } from '@taproot/json-api';
import { domainEvent } from '@taproot/messaging';
import { ResourceWriteHandler, ResourceWriter, type Keep, type Row, type WriteContext, type WriteResult } from '@taproot/resources';
import { deleteIncidentChildren } from '../incident-children/delete-children';
import { incidentEventDefinition } from '../timeline/incident-event.schema';
import { assertMayMakePrivate, findIncident, IncidentsCommand, type IncidentAccess } from './incident-access';
import { changeAlerts, linkAlerts, linkPlannedAlerts } from './incident-alerts';
import {
  actingUser,
  applyUpdate,
  assertStatusOfKind,
  changeRole,
  changeSubscribers,
  checkReferences,
  findRelated,
  IncidentPlan,
  initialStamps,
  kindFor,
  move,
  setDuplicate,
  setParent,
  settle,
} from './incident-changes';
import { presentIncident } from './incident-presenter';
import { incidentDefinition, incidentStorageSchema, type IncidentOperationName } from './incident.schema';
import { lifecycleOf, type IncidentKind, type IncidentStatus } from './incident.state';

/** Timeline rows are written with the incident's changes, in the same transaction. */
const timelineWriter = new ResourceWriter(incidentEventDefinition);

abstract class IncidentCommand extends IncidentsCommand {
  constructor(access: IncidentAccess) {
    super(incidentDefinition, access);
  }
}

export class CreateIncidentCommand extends IncidentCommand {
  constructor(
    access: IncidentAccess,
    readonly attributes: Row,
  ) {
    super(access);
  }
}

/**
 * A PUT of the incident, one of its operations (`mitigate`, `add_subscribers`, ...), or alerts
 * attached or detached (`/v1/incidents/{id}/alerts`): one code path.
 */
export type IncidentChange =
  | { kind: 'update'; attributes: Row }
  | { kind: 'operation'; operation: IncidentOperationName; attributes: Row }
  | { kind: 'alerts'; attach: boolean; alertIds: string[] };

export class ChangeIncidentCommand extends IncidentCommand {
  constructor(
    access: IncidentAccess,
    readonly id: string,
    readonly change: IncidentChange,
  ) {
    super(access);
  }
}

export class DeleteIncidentCommand extends IncidentCommand {
  constructor(
    access: IncidentAccess,
    readonly id: string,
  ) {
    super(access);
  }
}

/**
 * Queues a write's events with the incident as the API answers it (embedded records included) as
 * their payload: `incident.created|updated|deleted` from the writer, then `extra` (the moves'
 * own events, e.g. `incident.mitigated`), all with the same snapshot.
 */
async function announce(ctx: WriteContext, result: WriteResult, extra: readonly string[], keep: Keep): Promise<ResourceObject> {
  const incident = await presentIncident(ctx.manager, ctx.organizationId, result.snapshot);
  const payload = { id: incident.id, ...incident.attributes };
  const [event] = result.events;
  const more = extra.map((type) =>
    domainEvent({ type, organizationId: ctx.organizationId, aggregateType: incident.type, aggregateId: incident.id, actor: ctx.actor, payload, occurredAt: ctx.now }),
  );
  keep({ snapshot: result.snapshot, events: [{ ...event, payload }, ...more] });
  return incident;
}

/**
 * The organization's sequential ids: `step` 1 takes the next one; 0 only locks the counter (an
 * import, before it looks for what an earlier one created). The counter row stays locked until
 * the transaction commits, so ids have no gaps or duplicates.
 */
export async function takeSequentialId(ctx: WriteContext, step: 0 | 1): Promise<number> {
  const [row] = (await ctx.manager.query(
    `INSERT INTO incident_counters (organization_id, last_sequential_id) VALUES ($1, $2)
     ON CONFLICT (organization_id) DO UPDATE SET last_sequential_id = incident_counters.last_sequential_id + $2
     RETURNING last_sequential_id`,
    [ctx.organizationId, step],
  )) as { last_sequential_id: number }[];
  return row.last_sequential_id;
}

/**
 * THE create of an incident, for `POST /v1/incidents` and each item of an import: relationship
 * ids, the private permission, the creator, parent and original, kind and status, the next
 * sequential id, then the row and its `incident.created`. A `backfill`'s times are history as
 * sent: none is stamped with the time of the create, and no `*_by` is recorded.
 */
export async function createIncident(writer: ResourceWriter, ctx: WriteContext, access: IncidentAccess, input: Row, keep: Keep, backfill = false): Promise<ResourceObject> {
  const attributes = await checkReferences(ctx, input);
  const isPrivate = attributes.private === true;
  if (isPrivate) assertMayMakePrivate(access, 'create');
  const userId = attributes.user_id == null ? access.userId : String(attributes.user_id);
  if (userId !== null && !(await existingUserIds(ctx.manager, ctx.organizationId, [userId])).has(userId)) {
    throw JsonApiError.invalidAttributes([{ attribute: 'user_id', detail: `user_id: ${userId} is not a user of this organization`, code: 'UNKNOWN_USER' }]);
  }
  const parent = attributes.parent_incident_id == null ? null : await findRelated(ctx, access, 'parent_incident_id', String(attributes.parent_incident_id), null);
  const original = attributes.duplicate_incident_id == null ? null : await findRelated(ctx, access, 'duplicate_incident_id', String(attributes.duplicate_incident_id), null);
  const kind = kindFor((attributes.kind as IncidentKind | null) ?? 'normal', parent !== null);
  const status = (attributes.status as IncidentStatus | null) ?? (lifecycleOf(kind) === lifecycleOf('scheduled') ? 'scheduled' : 'started');
  assertStatusOfKind(kind, status, 'status');
  const sequentialId = await takeSequentialId(ctx, 1);
  const by = await actingUser(ctx, access.userId);
  const result = await writer.create(ctx, {
    ...attributes,
    ...(backfill ? {} : initialStamps(kind, status, attributes, ctx.now, by)),
    title: attributes.title ?? `Incident #${sequentialId}`,
    sequential_id: sequentialId,
    kind,
    status,
    private: isPrivate,
    source: 'api',
    user_id: userId,
    user: userId === access.userId ? by : await actingUser(ctx, userId),
    parent_incident_id: parent ? String(parent.id) : null,
    duplicate_incident_id: original ? String(original.id) : null,
  });
  const incident = await announce(ctx, result, [], keep);
  await linkAlerts(ctx, result.snapshot, (attributes.alert_ids as string[] | null) ?? [], true, keep, access.userId);
  return incident;
}

@CommandHandler(CreateIncidentCommand)
export class CreateIncidentHandler extends ResourceWriteHandler {
  execute(c: CreateIncidentCommand): Promise<ResourceObject> {
    return this.write(c, (writer, ctx, keep) => createIncident(writer, ctx, c.access, c.attributes, keep));
  }
}

/** Runs an operation on the plan; each writes its own timeline line and event. */
async function operate(plan: IncidentPlan, operation: IncidentOperationName, attributes: Row): Promise<void> {
  switch (operation) {
    case 'mitigate':
      return move(plan, 'mitigate', { message: ['mitigation_message', attributes.mitigation_message] });
    case 'resolve':
      return move(plan, 'resolve', { message: ['resolution_message', attributes.resolution_message] });
    case 'cancel':
      return move(plan, 'cancel', { message: ['cancellation_message', attributes.cancellation_message] });
    case 'in_triage':
    case 'restart':
      return move(plan, operation);
    case 'duplicate':
      return setDuplicate(plan, String(attributes.duplicate_incident_id), { resolutionMessage: attributes.resolution_message });
    case 'unmark_as_duplicate':
      return setDuplicate(plan, null, { strict: true });
    case 'detach_from_parent':
      return setParent(plan, null, true);
    case 'add_subscribers':
    case 'remove_subscribers':
      return changeSubscribers(plan, operation === 'add_subscribers', attributes);
    case 'assign_role_to_user':
    case 'unassign_role_from_user':
      return changeRole(plan, operation === 'assign_role_to_user', attributes);
  }
}

/** Writes the timeline lines of a plan, each announced as `incident_event.created`. */
async function writeTrail(ctx: WriteContext, plan: IncidentPlan, keep: Keep): Promise<void> {
  for (const [i, { kind, text }] of plan.trail.entries()) {
    // The lines of one change read in the order they happened (a millisecond apart).
    const occurredAt = new Date(ctx.now.getTime() + i);
    keep(await timelineWriter.create(ctx, { event: text, kind, visibility: 'internal', occurred_at: occurredAt, user_id: plan.access.userId }, plan.id));
  }
}

@CommandHandler(ChangeIncidentCommand)
export class ChangeIncidentHandler extends ResourceWriteHandler {
  execute(c: ChangeIncidentCommand): Promise<ResourceObject> {
    return this.write(c, async (writer, ctx, keep) => {
      const current = await findIncident(ctx.manager, 'incidents', c.access, c.id, true);
      const plan = new IncidentPlan(current, ctx, c.access);
      if (c.change.kind === 'update') await applyUpdate(plan, c.change.attributes);
      else if (c.change.kind === 'alerts') await changeAlerts(plan, c.change.attach, c.change.alertIds);
      else await operate(plan, c.change.operation, c.change.attributes);
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

@CommandHandler(DeleteIncidentCommand)
export class DeleteIncidentHandler extends ResourceWriteHandler {
  /**
   * Deletes the incident, the records under it and its timeline (each announced), and lets go of
   * the incidents that refer to it: its sub-incidents are detached and its duplicates unmarked,
   * each with its own update, timeline line and events.
   */
  execute(c: DeleteIncidentCommand): Promise<ResourceObject> {
    return this.write(c, async (writer, ctx, keep) => {
      const current = await findIncident(ctx.manager, 'incidents', c.access, c.id, true);
      const referring = (await ctx.manager.query(
        'SELECT * FROM incidents WHERE organization_id = $1 AND (parent_incident_id = $2 OR duplicate_incident_id = $2) ORDER BY sequential_id FOR UPDATE',
        [ctx.organizationId, current.id],
      )) as Row[];
      for (const row of referring) {
        const plan = new IncidentPlan(row, ctx, c.access);
        if (row.parent_incident_id === current.id) await setParent(plan, null);
        if (row.duplicate_incident_id === current.id) await setDuplicate(plan, null);
        settle(plan);
        await announce(ctx, await writer.update(ctx, plan.id, plan.changes), plan.events, keep);
        await writeTrail(ctx, plan, keep);
      }
      await linkAlerts(ctx, current, (current.alert_ids as string[] | null) ?? [], false, keep, c.access.userId);
      // Action items, sub-status assignments and the timeline's links: their keys refuse the deletes below.
      await deleteIncidentChildren(ctx, String(current.id), keep);
      const events = (await ctx.manager.query('SELECT id FROM incident_events WHERE incident_id = $1 ORDER BY occurred_at, created_at', [current.id])) as { id: string }[];
      for (const { id } of events) keep(await timelineWriter.delete(ctx, id));
      return announce(ctx, await writer.delete(ctx, String(current.id)), [], keep);
    });
  }
}

export const INCIDENT_COMMAND_HANDLERS = [CreateIncidentHandler, ChangeIncidentHandler, DeleteIncidentHandler];
