import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, TAPROOT_CONFIG, type Clock, type TaprootConfig } from '@taproot/config';
import {
  bulkDeleteCondition,
  bulkDeleteDocument,
  eachBulkItem,
  isJsonAttribute,
  JsonApiError,
  listDocument,
  parseBulkItem,
  toResourceObject,
  type BulkDeleteDocument,
  type BulkDeleteMode,
  type BulkEntity,
  type BulkUpsertDocument,
  type CollectionDocument,
  type FlatQuery,
  type SingleDocument,
  isUuid,
} from '@taproot/json-api';
import { domainEvent, topicOf, UnitOfWork, type DomainEvent, type Emitter, type Projection } from '@taproot/messaging';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { actorOf, type Principal } from '@taproot/auth';
import { teamSchema } from './team.schema';

type Row = Record<string, unknown>;

export const TEAMS_CONTEXT = 'identity';
export const GROUP_EVENTS = { created: 'group.created', updated: 'group.updated', deleted: 'group.deleted' } as const;

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

function slugify(name: string): string {
  const slug = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  return slug || 'team';
}

function toSnapshot(row: Row): Row & { id: string } {
  const snapshot: Row = { id: String(row.id) };
  for (const name of Object.keys(teamSchema.attributes)) {
    const value = row[name];
    snapshot[name] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  return snapshot as Row & { id: string };
}

/** The event of a team's change: the full snapshot (architecture: lifecycle events). */
export function groupEvent(type: string, row: Row, principal: Principal, now: Date): DomainEvent {
  const snapshot = toSnapshot(row);
  return domainEvent({ type, organizationId: principal.organizationId, aggregateType: teamSchema.type, aggregateId: snapshot.id, actor: actorOf(principal), payload: snapshot, occurredAt: now });
}

export function teamDocument(row: Row): SingleDocument {
  const { id, ...attributes } = toSnapshot(row);
  return { data: { id, type: teamSchema.type, attributes } };
}

/**
 * `/v1/teams`: the write table `groups`, its events on `taproot.identity` through the unit of
 * work (so `groups_read` follows, read-your-writes by waiting), reads from `groups_read`.
 */
@Injectable()
export class TeamsService {
  private readonly cursorSecret: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(TAPROOT_CONFIG) config: TaprootConfig,
  ) {
    this.cursorSecret = config.cursorSecret;
  }

  list(organizationId: string, query: FlatQuery): Promise<CollectionDocument> {
    return listDocument({ db: this.dataSource, schema: teamSchema, query, organizationId, cursorSecret: this.cursorSecret });
  }

  async get(organizationId: string, id: string): Promise<SingleDocument> {
    const [row] = await this.dataSource.query(`SELECT * FROM groups_read WHERE ${isUuid(id) ? 'id' : 'slug'} = $1 AND organization_id = $2`, [id, organizationId]);
    if (!row) throw JsonApiError.notFound(teamSchema.type, id);
    return { data: toResourceObject(teamSchema, row) };
  }

  create(principal: Principal, attributes: Row): Promise<SingleDocument> {
    return this.run(principal, async (manager, emit, now) => teamDocument(await this.insert(manager, principal, attributes, now, emit)));
  }

  update(principal: Principal, id: string, attributes: Row): Promise<SingleDocument> {
    return this.run(principal, async (manager, emit, now) => {
      const current = await this.load(manager, principal.organizationId, id);
      return teamDocument(await this.change(manager, principal, current, attributes, now, emit));
    });
  }

  delete(principal: Principal, id: string): Promise<SingleDocument> {
    return this.run(principal, async (manager, emit, now) => {
      const current = await this.load(manager, principal.organizationId, id);
      await manager.query('DELETE FROM groups WHERE id = $1 AND organization_id = $2', [current.id, principal.organizationId]);
      emit(groupEvent(GROUP_EVENTS.deleted, current, principal, now));
      return teamDocument(current);
    });
  }

  /**
   * Creates or updates each entity by `external_id`, in one transaction: any invalid item fails
   * the batch with 422 errors whose pointer names the item (`/entities/<index>/<attribute>`).
   */
  bulkUpsert(principal: Principal, entities: readonly BulkEntity[]): Promise<BulkUpsertDocument> {
    return this.run(principal, async (manager, emit, now) => {
      const rows = await eachBulkItem(entities, async (entity) => {
        const [current] = await manager.query('SELECT * FROM groups WHERE organization_id = $1 AND external_id = $2 FOR UPDATE', [principal.organizationId, entity.externalId]);
        const { attributes } = parseBulkItem(teamSchema, entity, current ? 'update' : 'create');
        return current ? this.change(manager, principal, current, attributes, now, emit) : this.insert(manager, principal, attributes, now, emit);
      });
      return { data: rows.map((row) => teamDocument(row).data) };
    });
  }

  /** `external_ids` mode deletes those teams; `managed_by` mode prunes that source's teams not kept. */
  bulkDelete(principal: Principal, mode: BulkDeleteMode): Promise<BulkDeleteDocument> {
    return this.run(principal, async (manager, emit, now) => {
      const { sql, params } = bulkDeleteCondition(mode);
      const rows: Row[] = await manager.query(`SELECT * FROM groups WHERE organization_id = $1 AND ${sql} FOR UPDATE`, [principal.organizationId, ...params]);
      for (const row of rows) {
        await manager.query('DELETE FROM groups WHERE id = $1 AND organization_id = $2', [row.id, principal.organizationId]);
        emit(groupEvent(GROUP_EVENTS.deleted, row, principal, now));
      }
      return bulkDeleteDocument(mode, rows.map((r) => String(r.external_id)));
    });
  }

  private run<T>(principal: Principal, work: (manager: EntityManager, emit: (e: DomainEvent) => void, now: Date) => Promise<T>): Promise<T> {
    return this.unitOfWork.run(async (manager, emitter: Emitter) => {
      const events: DomainEvent[] = [];
      const result = await work(manager, (e) => events.push(e), this.clock.now());
      if (events.length) emitter.emit(topicOf(TEAMS_CONTEXT), events);
      return result;
    });
  }

  private async load(manager: EntityManager, organizationId: string, id: string): Promise<Row> {
    const [row] = await manager.query(`SELECT * FROM groups WHERE ${isUuid(id) ? 'id' : 'slug'} = $1 AND organization_id = $2 FOR UPDATE`, [id, organizationId]);
    if (!row) throw JsonApiError.notFound(teamSchema.type, id);
    return row;
  }

  private async insert(manager: EntityManager, principal: Principal, input: Row, now: Date, emit: (e: DomainEvent) => void): Promise<Row> {
    const organizationId = principal.organizationId;
    const attributes: Row = { managed_by: 'api', ...input };
    await this.prepare(manager, organizationId, null, attributes);
    // Concurrent creates would pick the same free slug or position: take turns.
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`groups:${organizationId}`]);
    attributes.slug = await this.uniqueSlug(manager, organizationId, slugify(String(attributes.name)));
    if (attributes.position == null) {
      const [{ next }] = await manager.query('SELECT COALESCE(MAX(position), 0) + 1 AS next FROM groups WHERE organization_id = $1', [organizationId]);
      attributes.position = Number(next);
    }
    const row: Row = { id: randomUUID(), organization_id: organizationId, created_at: now, updated_at: now };
    for (const [name, def] of Object.entries(teamSchema.attributes)) {
      if (name in attributes && name !== 'created_at' && name !== 'updated_at') row[name] = toColumn(def, attributes[name]);
    }
    const columns = Object.keys(row);
    const [inserted] = await this.unique(attributes, () =>
      manager.query(`INSERT INTO groups (${columns.map(q).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`, columns.map((c) => row[c])),
    );
    emit(groupEvent(GROUP_EVENTS.created, inserted, principal, now));
    return inserted;
  }

  private async change(manager: EntityManager, principal: Principal, current: Row, input: Row, now: Date, emit: (e: DomainEvent) => void): Promise<Row> {
    const attributes: Row = { ...input };
    if (attributes.position === null) delete attributes.position;
    await this.prepare(manager, principal.organizationId, current, attributes);
    const sets: string[] = [];
    const values: unknown[] = [];
    for (const [name, def] of Object.entries(teamSchema.attributes)) {
      if (!(name in attributes) || name === 'created_at' || name === 'updated_at' || name === 'slug') continue;
      values.push(toColumn(def, attributes[name]));
      sets.push(`${q(name)} = $${values.length}`);
    }
    values.push(now, current.id, principal.organizationId);
    const [rows] = await this.unique(attributes, () =>
      manager.query(`UPDATE groups SET ${[...sets, `updated_at = $${values.length - 2}`].join(', ')} WHERE id = $${values.length - 1} AND organization_id = $${values.length} RETURNING *`, values),
    );
    const row = (rows as Row[])[0];
    emit(groupEvent(GROUP_EVENTS.updated, row, principal, now));
    return row;
  }

  /**
   * Membership: every id must be a user of the organization (422 naming the id); admins are
   * members too, so an admin missing from `user_ids` is added to it. Null means nobody.
   */
  private async prepare(manager: EntityManager, organizationId: string, current: Row | null, attributes: Row): Promise<void> {
    if (!('user_ids' in attributes) && !('admin_ids' in attributes)) return;
    const issues: { attribute: string; detail: string; code: string }[] = [];
    const wanted = (name: 'user_ids' | 'admin_ids'): number[] =>
      name in attributes ? ((attributes[name] as number[] | null) ?? []) : ((current?.[name] as number[] | undefined) ?? []);
    const users = wanted('user_ids');
    const admins = wanted('admin_ids');
    const all = [...new Set([...users, ...admins])];
    const known = new Set<number>(
      all.length ? (await manager.query('SELECT id FROM users WHERE organization_id = $1 AND id = ANY($2::int[])', [organizationId, all])).map((r: { id: number }) => r.id) : [],
    );
    for (const name of ['user_ids', 'admin_ids'] as const) {
      if (!(name in attributes)) continue;
      wanted(name).forEach((id, position) => {
        if (!known.has(id)) issues.push({ attribute: `${name}/${position}`, detail: `${name}[${position}]: user ${id} is not a user of this organization`, code: 'UNKNOWN_USER' });
      });
    }
    if (issues.length) throw JsonApiError.invalidAttributes(issues);
    attributes.user_ids = [...new Set([...users, ...admins])];
    attributes.admin_ids = [...new Set(admins)];
  }

  private async uniqueSlug(manager: EntityManager, organizationId: string, base: string): Promise<string> {
    const taken: { slug: string }[] = await manager.query('SELECT slug FROM groups WHERE organization_id = $1 AND (slug = $2 OR slug LIKE $3)', [organizationId, base, `${base}-%`]);
    const used = new Set(taken.map((t) => t.slug));
    if (!used.has(base)) return base;
    for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  /** Another team with the same `external_id` is the client's error (422 on `external_id`). */
  private async unique<T>(attributes: Row, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      const e = error as { driverError?: { constraint?: string; code?: string }; code?: string; constraint?: string };
      if ((e.driverError?.constraint ?? e.constraint) === 'groups_external_id') {
        throw JsonApiError.invalidAttributes([{ attribute: 'external_id', detail: `external_id ${JSON.stringify(attributes.external_id)} is already used by another team`, code: 'TAKEN' }]);
      }
      throw error;
    }
  }
}

function toColumn(def: Parameters<typeof isJsonAttribute>[0], value: unknown): unknown {
  if (value === null || value === undefined) return null;
  return isJsonAttribute(def) ? JSON.stringify(value) : value;
}

/** `groups_read`, maintained from `group.*` events (upsert of the snapshot, or delete). */
export class TeamsProjection implements Projection {
  readonly name = 'groups_read.projection';
  readonly topics = [topicOf(TEAMS_CONTEXT)];

  handles(eventType: string): boolean {
    return eventType === GROUP_EVENTS.created || eventType === GROUP_EVENTS.updated || eventType === GROUP_EVENTS.deleted;
  }

  async apply(event: DomainEvent, manager: EntityManager): Promise<void> {
    if (event.type === GROUP_EVENTS.deleted) {
      await manager.query('DELETE FROM groups_read WHERE id = $1 AND organization_id = $2', [event.aggregate_id, event.organization_id]);
      return;
    }
    const snapshot = event.payload as Row;
    const row: Row = { id: event.aggregate_id, organization_id: event.organization_id };
    for (const [name, def] of Object.entries(teamSchema.attributes)) {
      const value = snapshot[name] ?? null;
      row[name] = value !== null && isJsonAttribute(def) ? JSON.stringify(value) : value;
    }
    if (row.user_ids === null) row.user_ids = [];
    if (row.admin_ids === null) row.admin_ids = [];
    const columns = Object.keys(row);
    await manager.query(
      `INSERT INTO groups_read (${columns.map(q).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${columns.filter((c) => c !== 'id').map((c) => `${q(c)} = EXCLUDED.${q(c)}`).join(', ')}`,
      columns.map((c) => row[c]),
    );
  }
}
