import { CommandHandler } from '@nestjs/cqrs';
import { existingUserIds } from '@taproot/identity';
import { JsonApiError, type ResourceObject } from '@taproot/json-api';
import { ResourceWriteHandler, type Keep, type ResourceWriter, type Row, type WriteContext } from '@taproot/resources';
import { assertMayMakePrivate, type IncidentAccess } from '../../incident-access';
import { linkAlerts } from '../../incident-alerts';
import { actingUser, assertStatusOfKind, checkReferences, findRelated, initialStamps, kindFor } from '../../incident-changes';
import { lifecycleOf, type IncidentKind, type IncidentStatus } from '../../incident.state';
import { copyRetrospectiveSteps } from '../../../retrospectives/incident-retrospective-steps/copy-retrospective-steps';
import { announce } from '../incident-write';
import { CreateIncidentCommand } from './create-incident.command';
import { IncidentsErrorCode } from '../../../errors';

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
 * sequential id, then the row and its `incident.created`, then its copy of the matching
 * retrospective process' steps. A `backfill`'s times are history as sent: none is stamped with the
 * time of the create, and no `*_by` is recorded.
 */
export async function createIncident(writer: ResourceWriter, ctx: WriteContext, access: IncidentAccess, input: Row, keep: Keep, backfill = false): Promise<ResourceObject> {
  const attributes = await checkReferences(ctx, input);
  const isPrivate = attributes.private === true;
  if (isPrivate) assertMayMakePrivate(access, 'create');
  const userId = attributes.user_id == null ? access.userId : String(attributes.user_id);
  if (userId !== null && !(await existingUserIds(ctx.manager, ctx.organizationId, [userId])).has(userId)) {
    throw JsonApiError.invalidAttributes([{ attribute: 'user_id', detail: `user_id: ${userId} is not a user of this organization`, code: IncidentsErrorCode.UnknownUser }]);
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
  await copyRetrospectiveSteps(ctx, result.snapshot, keep);
  await linkAlerts(ctx, result.snapshot, (attributes.alert_ids as string[] | null) ?? [], true, keep, access.userId);
  return incident;
}

@CommandHandler(CreateIncidentCommand)
export class CreateIncidentHandler extends ResourceWriteHandler {
  execute(c: CreateIncidentCommand): Promise<ResourceObject> {
    return this.write(c, (writer, ctx, keep) => createIncident(writer, ctx, c.access, c.attributes, keep));
  }
}
