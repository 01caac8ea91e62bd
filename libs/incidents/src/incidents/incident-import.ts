import { randomUUID } from 'node:crypto';
import { CommandHandler } from '@nestjs/cqrs';
import { eachBulkItem, itemErrors, JsonApiError, parseBulkItem, toResourceObject, type BulkEntity, type ResourceObject } from '@taproot/json-api';
import { currentRequestMetadata, domainEvent, runWithRequestMetadata } from '@taproot/messaging';
import { ResourceWriteHandler, ResourceWriter, type Row, type WriteContext } from '@taproot/resources';
import { incidentEventDefinition } from '../timeline/incident-event.schema';
import { IncidentsCommand, privateRefusal, seesPrivate, type IncidentAccess } from './incident-access';
import { createIncident, takeSequentialId } from './commands/create-incident/create-incident.handler';
import { presentIncident } from './incident-presenter';
import { INCIDENT_IMPORT_COMPLETED } from '../events';
import { incidentDefinition, incidentImportSchema, incidentStorageSchema } from './incident.schema';
import { INCIDENT_LIFECYCLE, LIFECYCLE_TIMESTAMPS, OUTCOME_TIMESTAMPS, type IncidentStatus } from './incident.state';
import { IncidentsErrorCode } from '../errors';

/** `POST /v1/incidents/import`: historical incidents, all or none (docs/incidents.md, Bulk import). */
export class ImportIncidentsCommand extends IncidentsCommand {
  constructor(
    access: IncidentAccess,
    readonly entities: readonly BulkEntity<string | null>[],
  ) {
    super(incidentDefinition, access);
  }
}

export interface IncidentImportDocument {
  /** Each item's incident, in item order: the one created, or the one an earlier import created. */
  data: ResourceObject[];
  meta: { import_id: string; imported: number; already_imported: number[] };
}

/** The announcement of an import: the one event of it that outgoing webhooks forward (docs/events.md). */

/**
 * Times a historical incident must keep in order, each checked against the latest one before it
 * that the item sends: the stages in the order the lifecycle reaches them, the outcomes not
 * before triage, the maintenance window.
 */
const TIME_ORDER: readonly (readonly string[])[] = [
  ['started_at', 'detected_at', 'acknowledged_at', 'mitigated_at', 'resolved_at', 'closed_at'],
  ['started_at', 'cancelled_at'],
  ['in_triage_at', 'resolved_at'],
  ['in_triage_at', 'closed_at'],
  ['in_triage_at', 'cancelled_at'],
  ['scheduled_for', 'scheduled_until'],
];

type Issue = { attribute: string; detail: string; code: string };

/**
 * What an imported incident's times must say, since none is filled in for it: when it reached its
 * status (`resolved_at` for resolved, ...), no outcome its status does not hold (a started
 * incident has no `resolved_at`), no lifecycle time after the import, and the order of TIME_ORDER.
 * One 422 naming every problem.
 */
export function assertHistory(attributes: Row, now: Date): void {
  const status = attributes.status as IncidentStatus;
  const time = (name: string) => (attributes[name] == null ? null : Date.parse(String(attributes[name])));
  const issues: Issue[] = [];
  const own = `${status}_at`;
  if (time(own) === null) issues.push({ attribute: own, detail: `${own} is required: when the incident became ${status}`, code: IncidentsErrorCode.RequiredAttribute });
  const held = INCIDENT_LIFECYCLE.stamps[status] ?? [];
  for (const stamp of OUTCOME_TIMESTAMPS) {
    if (time(stamp) !== null && !held.includes(stamp)) issues.push({ attribute: stamp, detail: `${stamp}: a ${status} incident has none (send the status it ended in)`, code: IncidentsErrorCode.NotHeld });
  }
  for (const stamp of LIFECYCLE_TIMESTAMPS) {
    if ((time(stamp) ?? 0) > now.getTime()) issues.push({ attribute: stamp, detail: `${stamp} is in the future: an import records what happened`, code: IncidentsErrorCode.FutureTime });
  }
  for (const chain of TIME_ORDER) {
    let latest: string | null = null;
    for (const name of chain) {
      const at = time(name);
      if (at === null) continue;
      if (latest !== null && at < time(latest)!) {
        issues.push({ attribute: name, detail: `${name} (${String(attributes[name])}) is before ${latest} (${String(attributes[latest])})`, code: IncidentsErrorCode.TimeOrder });
      } else latest = name;
    }
  }
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
}

/**
 * Private items need `create` on private incidents, as a single create does: without it the batch
 * is refused at once (403), naming each private item, before anything is looked at.
 */
function assertMayImportPrivate(access: IncidentAccess, entities: readonly BulkEntity<string | null>[]): void {
  const refusal = privateRefusal(access, 'create');
  const items = entities.filter((e) => e.input.private === true);
  if (refusal && items.length) throw new JsonApiError(403, items.flatMap((e) => itemErrors(e.index, e.externalId, refusal.errors)));
}

/**
 * The incident an earlier import created under `externalId`, as the API answers it. One the
 * caller may not see cannot be answered, nor imported again: 422.
 */
async function importedBefore(ctx: WriteContext, access: IncidentAccess, externalId: string | null): Promise<ResourceObject | null> {
  if (externalId === null) return null;
  const [row] = (await ctx.manager.query('SELECT * FROM incidents WHERE organization_id = $1 AND external_id = $2', [ctx.organizationId, externalId])) as Row[];
  if (!row) return null;
  if (row.private === true && !seesPrivate(access)) {
    throw JsonApiError.invalidAttributes([{ attribute: 'external_id', detail: `external_id ${JSON.stringify(externalId)} is taken by an incident of this organization`, code: IncidentsErrorCode.Taken }]);
  }
  const { id, attributes } = toResourceObject(incidentStorageSchema, row);
  return presentIncident(ctx.manager, ctx.organizationId, { id, ...attributes });
}

/** The import's timeline line of each incident it creates (in place of a trail it never had). */
const timelineWriter = new ResourceWriter(incidentEventDefinition);

/**
 * Each item goes through the create of `POST /v1/incidents` as a backfill, in one transaction:
 * one refused item fails the batch, every refused item is named, and nothing is kept (the
 * sequential ids neither). Every event it writes carries the import's id in its metadata; one
 * `incident_import.completed` closes it.
 */
@CommandHandler(ImportIncidentsCommand)
export class ImportIncidentsHandler extends ResourceWriteHandler {
  execute(c: ImportIncidentsCommand): Promise<IncidentImportDocument> {
    const { access, entities } = c;
    assertMayImportPrivate(access, entities);
    const importId = randomUUID();
    const request = currentRequestMetadata() ?? { request_id: null, ip_address: null, user_agent: null, session_id: null };
    return runWithRequestMetadata({ ...request, import_id: importId }, () =>
      this.write(c, async (writer, ctx, keep) => {
        // Every create takes the counter first: a concurrent import of the same external_id waits here, then finds it.
        await takeSequentialId(ctx, 0);
        const alreadyImported: number[] = [];
        const data = await eachBulkItem(entities, async (entity) => {
          const { attributes } = parseBulkItem(incidentImportSchema, entity, 'create');
          const earlier = await importedBefore(ctx, access, entity.externalId);
          if (earlier) {
            alreadyImported.push(entity.index);
            return earlier;
          }
          assertHistory(attributes, ctx.now);
          const incident = await createIncident(writer, ctx, access, attributes, keep, true);
          const line = `Imported as a backfilled incident${entity.externalId === null ? '' : ` (external_id ${entity.externalId})`}`;
          keep(await timelineWriter.create(ctx, { event: line, kind: 'import', visibility: 'internal', occurred_at: ctx.now, user_id: access.userId }, incident.id));
          return incident;
        });
        const created = data.filter((_, index) => !alreadyImported.includes(index));
        if (created.length) {
          const payload = { id: importId, incidents: created.map(({ id, attributes: a }) => ({ id, sequential_id: a.sequential_id, external_id: a.external_id })) };
          const event = domainEvent({ type: INCIDENT_IMPORT_COMPLETED, organizationId: ctx.organizationId, aggregateType: 'incident_imports', aggregateId: importId, actor: ctx.actor, payload, occurredAt: ctx.now });
          keep({ snapshot: payload, events: [event] });
        }
        return { data, meta: { import_id: importId, imported: created.length, already_imported: alreadyImported } };
      }),
    );
  }
}
