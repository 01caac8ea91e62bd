import { appendToOutbox, domainEvent, topicOf, type ConsumerContract, type DomainEvent, type Projection } from '@taproot/messaging';
import type { EntityManager } from 'typeorm';

/**
 * The audited item's kind: PascalCase of the singular that names every lifecycle event
 * (`incident_sub_status.created` -> `IncidentSubStatus`, `api_key.updated` -> `ApiKey`), so no
 * plural has to be guessed back into a singular.
 */
export function itemTypeOf(eventType: string): string {
  const singular = eventType.slice(0, eventType.indexOf('.'));
  return singular.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
}

/** The kinds whose name the reference's `audit.item_type` enum has, by kind. */
export const REFERENCE_ITEM_TYPES: Record<string, string> = Object.fromEntries([
  ...['ApiKey', 'Cause', 'Environment', 'Functionality', 'Group', 'Incident', 'IncidentActionItem', 'IncidentEvent', 'IncidentRoleTask', 'IncidentType', 'OnCallRole', 'Role', 'Schedule', 'Service', 'Severity'].map((t) => [t, t]),
  ['AlertsSource', 'Alerts::Source'],
]);

/**
 * The served `item_type`: the reference's name of the kind, or null for a kind its enum lacks
 * (the hosted API's SDK refuses any other value); `item_type_display` names every kind.
 */
export function referenceItemType(kind: string): string | null {
  return REFERENCE_ITEM_TYPES[kind] ?? null;
}

const ACTIONS: Record<string, string> = { created: 'create', updated: 'update', deleted: 'destroy' };

/** `{ attribute: [before, after] }` for every attribute whose JSON differs. */
export function objectChanges(before: Record<string, unknown> | null, after: Record<string, unknown> | null): Record<string, [unknown, unknown]> | null {
  if (!after) return null;
  const changes: Record<string, [unknown, unknown]> = {};
  for (const key of new Set([...Object.keys(before ?? {}), ...Object.keys(after)])) {
    if (key === 'updated_at') continue;
    const old = before?.[key] ?? null;
    const now = after[key] ?? null;
    if (JSON.stringify(old) !== JSON.stringify(now)) changes[key] = [old, now];
  }
  return changes;
}

export const AUDIT_CONSUMER = 'audits.projection';
export const AUDIT_LOG_CREATED = 'audit_log.created';
/** Every event but the audit log's own announcements. */
const AUDITED = /^(?!audit_log\.)/;

/**
 * What the audit log reads of every event it audits (its consumer contract): the item (type,
 * aggregate), who and when, and the payload as the item's object.
 */
export const AUDIT_LOG_CONTRACT: ConsumerContract = {
  consumer: 'the audit log',
  rules: [{ types: AUDITED, fields: ['id:string', 'type:string', 'organization_id:string', 'aggregate_id:string', 'actor.kind:string', 'occurred_at:string', 'payload:object'] }],
};

/**
 * The audit log: every domain event of every context becomes one audit row (who, from where,
 * what, and what changed), and each row is announced as `audit_log.created` for outgoing
 * webhooks. Built from events, so no write path can forget to audit.
 */
export class AuditLogProjection implements Projection {
  readonly name = AUDIT_CONSUMER;

  /** `topics`: every context's (the app's EVENT_TOPICS). */
  constructor(readonly topics: readonly string[]) {}

  handles(eventType: string): boolean {
    return AUDITED.test(eventType);
  }

  apply(event: DomainEvent, manager: EntityManager): Promise<void> {
    return this.applyBatch([event], manager);
  }

  /**
   * A batch in a few statements whatever its size: the previous object of every item, the users
   * behind the actors, one multi-row insert, one outbox append for the announcements. Changes are
   * computed in order, each against the item's latest object (earlier in the batch or stored).
   */
  async applyBatch(events: DomainEvent[], manager: EntityManager): Promise<void> {
    for (let i = 0; i < events.length; i += CHUNK) await this.applyChunk(events.slice(i, i + CHUNK), manager);
  }

  private async applyChunk(events: DomainEvent[], manager: EntityManager): Promise<void> {
    const latest = await previousObjects(manager, events);
    const who = await actingUsers(manager, events);
    const columns: unknown[][] = events.map((event) => {
      const kind = itemTypeOf(event.type);
      const suffix = event.type.slice(event.type.lastIndexOf('.') + 1);
      const action = ACTIONS[suffix] ?? suffix;
      const object = action === 'destroy' ? null : (event.payload as Record<string, unknown>);
      const item = itemKey(event.organization_id, kind, event.aggregate_id);
      const changes = objectChanges(latest.get(item) ?? null, object);
      latest.set(item, object);
      const apiKeyId = event.actor.kind === 'api_key' ? event.actor.id : null;
      const user = who.get(actorKey(event));
      const meta = event.metadata;
      return [
        event.organization_id,
        event.id,
        action,
        kind,
        referenceItemType(kind),
        kind.replace(/([a-z])([A-Z])/g, '$1 $2'),
        event.aggregate_id,
        object === null ? null : JSON.stringify(object),
        JSON.stringify(changes),
        user?.id ?? null,
        user?.email ?? null,
        user?.name ?? null,
        apiKeyId,
        event.actor.kind === 'api_key' ? 'api' : event.actor.kind === 'user' ? 'oauth' : 'system',
        meta?.ip_address ?? null,
        meta?.user_agent ?? null,
        meta?.request_id ?? null,
        meta?.session_id ?? null,
        event.occurred_at,
      ];
    });
    const width = columns[0].length;
    const rows: Record<string, unknown>[] = await manager.query(
      `INSERT INTO audits (organization_id, event_id, event, item_kind, item_type, item_type_display, item_id, object, object_changes,
                           user_id, user_email, user_name, api_key_id, source, ip_address, user_agent, request_id, session_id, created_at)
       VALUES ${columns.map((_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(', ')})`).join(', ')}
       RETURNING *`,
      columns.flat(),
    );
    const byEvent = new Map(rows.map((row) => [String(row.event_id), row]));
    const announced = events.map((event) => {
      const row = byEvent.get(event.id)!;
      const announcement = domainEvent({
        type: AUDIT_LOG_CREATED,
        organizationId: event.organization_id,
        aggregateType: 'audits',
        aggregateId: String(row.id),
        actor: event.actor,
        payload: { ...row, id: String(row.id) },
      });
      // The announcement carries the audited request's metadata, not whatever context runs this.
      return { ...announcement, metadata: event.metadata };
    });
    await appendToOutbox(manager, topicOf('identity'), announced);
  }
}

/** Audit rows per multi-row insert: 19 parameters each stay far below PostgreSQL's 65,535. */
const CHUNK = 500;

const itemKey = (organizationId: string, kind: string, itemId: string) => `${organizationId}|${kind}|${itemId}`;
const actorKey = (event: DomainEvent) => `${event.organization_id}|${event.actor.kind}|${event.actor.id ?? ''}`;

/** The object of the newest audit row of each item the events touch. */
async function previousObjects(manager: EntityManager, events: DomainEvent[]): Promise<Map<string, Record<string, unknown> | null>> {
  const items = [...new Map(events.map((e) => [itemKey(e.organization_id, itemTypeOf(e.type), e.aggregate_id), e])).values()];
  const rows: { organization_id: string; item_kind: string; item_id: string; object: Record<string, unknown> | null }[] = await manager.query(
    `SELECT DISTINCT ON (a.organization_id, a.item_kind, a.item_id) a.organization_id, a.item_kind, a.item_id, a.object
       FROM audits a JOIN unnest($1::uuid[], $2::text[], $3::text[]) AS t(organization_id, item_kind, item_id)
         ON a.organization_id = t.organization_id AND a.item_kind = t.item_kind AND a.item_id = t.item_id
      ORDER BY a.organization_id, a.item_kind, a.item_id, a.id DESC`,
    [items.map((e) => e.organization_id), items.map((e) => itemTypeOf(e.type)), items.map((e) => e.aggregate_id)],
  );
  return new Map(rows.map((r) => [itemKey(r.organization_id, r.item_kind, r.item_id), r.object]));
}

/** The user behind each actor: the OAuth user, or the user of the API key (none for a key without one). */
async function actingUsers(manager: EntityManager, events: DomainEvent[]): Promise<Map<string, { id: number; email: string; name: string }>> {
  const actors = [...new Map(events.filter((e) => e.actor.kind !== 'system').map((e) => [actorKey(e), e])).values()];
  if (actors.length === 0) return new Map();
  const rows: { i: string; id: number; email: string; name: string }[] = await manager.query(
    `SELECT t.i::text AS i, u.id, u.email, u.name
       FROM unnest($1::uuid[], $2::int[], $3::text[]) WITH ORDINALITY AS t(organization_id, user_id, api_key_id, i)
       JOIN users u ON u.organization_id = t.organization_id
        AND u.id = COALESCE(t.user_id, (SELECT k.user_id FROM api_keys k WHERE k.id::text = t.api_key_id AND k.organization_id = t.organization_id))`,
    [
      actors.map((e) => e.organization_id),
      actors.map((e) => (e.actor.kind === 'user' && e.actor.id ? Number(e.actor.id) : null)),
      actors.map((e) => (e.actor.kind === 'api_key' ? e.actor.id : null)),
    ],
  );
  return new Map(rows.map((r) => [actorKey(actors[Number(r.i) - 1]), { id: r.id, email: r.email, name: r.name }]));
}
