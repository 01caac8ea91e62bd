import { appendToOutbox, CONTEXTS, domainEvent, topicOf, type DomainEvent, type Projection } from '@taproot/messaging';
import type { EntityManager } from 'typeorm';

/**
 * The audit item type: PascalCase of the singular that names every lifecycle event
 * (`incident_sub_status.created` -> `IncidentSubStatus`, `api_key.updated` -> `ApiKey`), so no
 * plural has to be guessed back into a singular.
 */
export function itemTypeOf(eventType: string): string {
  const singular = eventType.slice(0, eventType.indexOf('.'));
  return singular.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
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

/**
 * The audit log: every domain event of every context becomes one audit row (who, from where,
 * what, and what changed), and each row is announced as `audit_log.created` for outgoing
 * webhooks. Built from events, so no write path can forget to audit.
 */
export class AuditLogProjection implements Projection {
  readonly name = AUDIT_CONSUMER;
  readonly topics = CONTEXTS.map(topicOf);

  handles(eventType: string): boolean {
    return !eventType.startsWith('audit_log.');
  }

  async apply(event: DomainEvent, manager: EntityManager): Promise<void> {
    const itemType = itemTypeOf(event.type);
    const suffix = event.type.slice(event.type.lastIndexOf('.') + 1);
    const action = ACTIONS[suffix] ?? suffix;
    const object = action === 'destroy' ? null : (event.payload as Record<string, unknown>);
    const [previous] = await manager.query(
      'SELECT object FROM audits WHERE organization_id = $1 AND item_type = $2 AND item_id = $3 ORDER BY id DESC LIMIT 1',
      [event.organization_id, itemType, event.aggregate_id],
    );
    const apiKeyId = event.actor.kind === 'api_key' ? event.actor.id : null;
    const [who] = await manager.query(
      `SELECT u.id, u.email, u.name FROM users u
        WHERE u.organization_id = $1
          AND u.id = COALESCE($2::int, (SELECT k.user_id FROM api_keys k WHERE k.id::text = $3 AND k.organization_id = $1))`,
      [event.organization_id, event.actor.kind === 'user' && event.actor.id ? Number(event.actor.id) : null, apiKeyId],
    );
    const meta = event.metadata;
    const [row] = await manager.query(
      `INSERT INTO audits (organization_id, event_id, event, item_type, item_type_display, item_id, object, object_changes,
                           user_id, user_email, user_name, api_key_id, source, ip_address, user_agent, request_id, session_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
       RETURNING *`,
      [
        event.organization_id,
        event.id,
        action,
        itemType,
        itemType.replace(/([a-z])([A-Z])/g, '$1 $2'),
        event.aggregate_id,
        object === null ? null : JSON.stringify(object),
        JSON.stringify(objectChanges(previous?.object ?? null, object)),
        who?.id ?? null,
        who?.email ?? null,
        who?.name ?? null,
        apiKeyId,
        event.actor.kind === 'api_key' ? 'api' : event.actor.kind === 'user' ? 'oauth' : 'system',
        meta?.ip_address ?? null,
        meta?.user_agent ?? null,
        meta?.request_id ?? null,
        meta?.session_id ?? null,
        event.occurred_at,
      ],
    );
    const announced = domainEvent({
      type: AUDIT_LOG_CREATED,
      organizationId: event.organization_id,
      aggregateType: 'audits',
      aggregateId: String(row.id),
      actor: event.actor,
      payload: { ...row, id: String(row.id) },
    });
    // The announcement carries the audited request's metadata, not whatever context runs this.
    await appendToOutbox(manager, topicOf('identity'), [{ ...announced, metadata: meta }]);
  }
}
