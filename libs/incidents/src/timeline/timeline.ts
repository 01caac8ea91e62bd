import { CommandHandler } from '@nestjs/cqrs';
import { isUuid, JsonApiError, listDocument, parseListQuery, toResourceObject, type CollectionDocument, type FlatQuery, type Queryable, type ResourceObject, type SingleDocument } from '@taproot/json-api';
import { ResourceWriteHandler, snapshotObject, type Row } from '@taproot/resources';
import { findIncident, IncidentsCommand, seesPrivate, type IncidentAccess } from '../incidents/incident-access';
import { incidentEventDefinition, incidentEventSchema } from './incident-event.schema';
import { IncidentsError, IncidentsErrorCode } from '../errors';

abstract class TimelineCommand extends IncidentsCommand {
  constructor(access: IncidentAccess) {
    super(incidentEventDefinition, access);
  }
}

/** A responder's note on an incident's timeline (`POST /v1/incidents/{incident_id}/events`). */
export class CreateTimelineEventCommand extends TimelineCommand {
  constructor(
    access: IncidentAccess,
    readonly incidentId: string,
    readonly attributes: Row,
  ) {
    super(access);
  }
}

export class UpdateTimelineEventCommand extends TimelineCommand {
  constructor(
    access: IncidentAccess,
    readonly id: string,
    readonly attributes: Row,
  ) {
    super(access);
  }
}

export class DeleteTimelineEventCommand extends TimelineCommand {
  constructor(
    access: IncidentAccess,
    readonly id: string,
  ) {
    super(access);
  }
}

/**
 * One timeline event of the caller's organization, from the write or the read tables. An event of
 * a private incident the caller may not see answers 404 like a missing one.
 */
export async function findEvent(db: Queryable, tables: 'write' | 'read', access: IncidentAccess, id: string, forUpdate = false): Promise<Row> {
  const [events, incidents] = tables === 'write' ? ['incident_events', 'incidents'] : ['incident_events_read', 'incidents_read'];
  const rows = isUuid(id)
    ? ((await db.query(
        `SELECT e.*, i.private AS incident_private FROM ${events} e JOIN ${incidents} i ON i.id = e.incident_id WHERE e.id = $1 AND e.organization_id = $2${forUpdate ? ' FOR UPDATE OF e' : ''}`,
        [id.toLowerCase(), access.organizationId],
      )) as Row[])
    : [];
  const row = rows[0];
  if (!row || (row.incident_private === true && !seesPrivate(access))) throw JsonApiError.notFound(incidentEventSchema.type, id);
  return row;
}

/** The incident's own trail (status changes, duplicates, ...) is history: only notes are edited. */
function assertNote(row: Row, action: string): void {
  if (row.kind === 'note') return;
  throw new IncidentsError(IncidentsErrorCode.TrailIsReadOnly, `Timeline event ${String(row.id)} was written by an incident operation (${String(row.kind)}) and cannot be ${action}; only notes can`);
}

@CommandHandler(CreateTimelineEventCommand)
export class CreateTimelineEventHandler extends ResourceWriteHandler {
  execute(c: CreateTimelineEventCommand): Promise<ResourceObject> {
    return this.write(c, async (writer, ctx, keep) => {
      const incident = await findIncident(ctx.manager, 'incidents', c.access, c.incidentId);
      const note = { ...c.attributes, kind: 'note', occurred_at: ctx.now, user_id: c.access.userId };
      return snapshotObject(incidentEventSchema, keep(await writer.create(ctx, note, String(incident.id))));
    });
  }
}

@CommandHandler(UpdateTimelineEventCommand)
export class UpdateTimelineEventHandler extends ResourceWriteHandler {
  execute(c: UpdateTimelineEventCommand): Promise<ResourceObject> {
    return this.write(c, async (writer, ctx, keep) => {
      assertNote(await findEvent(ctx.manager, 'write', c.access, c.id, true), 'changed');
      return snapshotObject(incidentEventSchema, keep(await writer.update(ctx, c.id.toLowerCase(), c.attributes)));
    });
  }
}

@CommandHandler(DeleteTimelineEventCommand)
export class DeleteTimelineEventHandler extends ResourceWriteHandler {
  execute(c: DeleteTimelineEventCommand): Promise<ResourceObject> {
    return this.write(c, async (writer, ctx, keep) => {
      assertNote(await findEvent(ctx.manager, 'write', c.access, c.id, true), 'deleted');
      return snapshotObject(incidentEventSchema, keep(await writer.delete(ctx, c.id.toLowerCase())));
    });
  }
}

export const TIMELINE_COMMAND_HANDLERS = [CreateTimelineEventHandler, UpdateTimelineEventHandler, DeleteTimelineEventHandler];

/** Reads of timelines over `incident_events_read`, behind their incident's visibility. */
export class TimelineReader {
  constructor(
    private readonly db: Queryable,
    private readonly cursorSecret: string,
  ) {}

  async list(access: IncidentAccess, incidentId: string, query: FlatQuery): Promise<CollectionDocument> {
    const { db, cursorSecret } = this;
    const incident = await findIncident(db, 'incidents_read', access, incidentId);
    const scope = [{ attribute: 'incident_id', operator: 'eq' as const, values: [String(incident.id)], parameter: 'incident_id' }];
    const q = parseListQuery(incidentEventSchema, query, { cursorSecret, scope });
    const basePath = `/v1/incidents/${encodeURIComponent(incidentId)}/events`;
    return listDocument({ db, schema: incidentEventSchema, q, query, organizationId: access.organizationId, cursorSecret, basePath });
  }

  async get(access: IncidentAccess, id: string): Promise<SingleDocument> {
    return { data: toResourceObject(incidentEventSchema, await findEvent(this.db, 'read', access, id)) };
  }
}
