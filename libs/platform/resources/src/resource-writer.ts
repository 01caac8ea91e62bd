import { randomUUID } from 'node:crypto';
import { INTEGER_RANGE, isJsonAttribute, isUuid, JsonApiError, REDACTED, type AttributeDef, type ResourceObject, type ResourceSchema } from '@taproot/json-api';
import { PG_ERRORS, pgErrorCode, quoteIdent } from '@taproot/persistence';
import { domainEvent, type DomainEvent } from '@taproot/messaging';
import type { EntityManager } from 'typeorm';
import { lifecycleEvents, type ResourceDefinition, type Row, type WriteContext } from './resource-definition';
import { findParent, findParents } from './resource-parent';
import { slugify } from './slug';

/** Inserts of a record whose slug a concurrent create took, before the last (plain) one. */
const SLUG_ATTEMPTS = 8;

/** A resource's state as its events carry it: every attribute plus id and timestamps. */
export type Snapshot = Row & { id: string };

export interface WriteResult {
  snapshot: Snapshot;
  events: DomainEvent[];
  /**
   * The bounded context whose topic the events go to; omitted, the command's. A command may
   * write another context's resource through its public API (an incident attaching alerts).
   */
  context?: string;
}


function toColumn(def: AttributeDef, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  return isJsonAttribute(def) ? JSON.stringify(value) : value;
}

function toSnapshot(schema: ResourceSchema, row: Row): Snapshot {
  const snapshot: Row = { id: String(row.id) };
  for (const [name, def] of Object.entries(schema.attributes)) {
    const value = row[def.column ?? name];
    snapshot[name] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  return snapshot as Snapshot;
}

/**
 * The snapshot with its sensitive values (`AttributeDef.sensitive`) replaced by REDACTED: every one
 * for `events`, the write-only ones for `answers`.
 */
function redacted(schema: ResourceSchema, snapshot: Snapshot, audience: 'events' | 'answers'): Snapshot {
  const hidden = Object.entries(schema.attributes).filter(([name, def]) => def.sensitive && (audience === 'events' || def.sensitive === 'write-only') && snapshot[name] != null);
  return hidden.length ? { ...snapshot, ...Object.fromEntries(hidden.map(([name]) => [name, REDACTED])) } : snapshot;
}

/** A write's answer: the snapshot as a resource object (its values are already wire values). */
export function snapshotObject(schema: ResourceSchema, snapshot: Snapshot): ResourceObject {
  const { id, ...all } = snapshot;
  const attributes = Object.fromEntries(Object.entries(all).filter(([name, value]) => !(value == null && schema.attributes[name]?.omitWhenNull)));
  return { id, type: schema.type, attributes };
}

/**
 * The generic write path of a declared resource. Runs inside the caller's transaction; the
 * caller (a command handler, through the unit of work) appends the returned events to the
 * outbox in that same transaction.
 */
export class ResourceWriter {
  constructor(private readonly def: ResourceDefinition) {}

  get schema(): ResourceSchema {
    return this.def.schema;
  }

  /** `parentId`: the path's parent, for a resource declared under one (`schema.parent`). */
  async create(ctx: WriteContext, input: Row, parentId?: string): Promise<WriteResult> {
    const { schema } = this.def;
    let attributes: Row = schema.parent ? await this.underParent(ctx, input, parentId) : { ...input };
    attributes = this.deriveSlugs(attributes);
    for (const [name, def] of Object.entries(schema.attributes)) {
      if (def.default !== undefined && attributes[name] === undefined) attributes[name] = def.default;
    }
    // `position` orders lists and backs their keyset index, so it is never null: an omitted one
    // goes last, computed by the INSERT itself (no round trip of its own). A client may store the
    // integer maximum; later ones then share it (ties go by id) instead of overflowing.
    const appended = schema.attributes.position?.type === 'integer' && attributes.position == null;
    if (this.def.rules?.beforeCreate) attributes = await this.def.rules.beforeCreate(attributes, ctx);
    // A beforeCreate rule may assign the id (a payload never carries one: only declared attributes pass).
    const row: Row = { id: typeof attributes.id === 'string' ? attributes.id : randomUUID(), organization_id: ctx.organizationId, created_at: ctx.now, updated_at: ctx.now };
    for (const [name, def] of Object.entries(schema.attributes)) {
      if (name === 'created_at' || name === 'updated_at') continue;
      if (name in attributes) row[def.column ?? name] = toColumn(def, attributes[name]);
    }
    const table = quoteIdent(this.def.table);
    const position = appended ? (schema.attributes.position.column ?? 'position') : null;
    // Columns given as parameters (read from `row` at each attempt: a retry changes the slug).
    const given = Object.keys(row).filter((c) => c !== position);
    const values = given.map((_, i) => `$${i + 1}`);
    // Under a parent, the position orders the parent's records (a rotation's members): last among them.
    const parentColumn = schema.parent ? (schema.attributes[schema.parent.attribute].column ?? schema.parent.attribute) : null;
    const ofParent = parentColumn ? ` AND ${quoteIdent(parentColumn)} = $${given.indexOf(parentColumn) + 1}` : '';
    // Appends under a parent declared with distinct positions take turns, so each sees the
    // position the previous one took (one lock per parent, held to commit).
    if (position && parentColumn && schema.parent?.distinctPositions) await ctx.manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.def.table}:${String(row[parentColumn])}`]);
    if (position) values.push(`(SELECT LEAST(COALESCE(MAX(${quoteIdent(position)}), 0)::bigint + 1, ${INTEGER_RANGE.maximum}) FROM ${table} WHERE organization_id = $${given.indexOf('organization_id') + 1}${ofParent})`);
    const columns = position ? [...given, position] : given;
    const insert = (onConflict: string) =>
      ctx.manager.query(
        `INSERT INTO ${table} (${columns.map(quoteIdent).join(', ')}) VALUES (${values.join(', ')}) ${onConflict}RETURNING *`,
        given.map((c) => row[c]),
      );
    const slugs = Object.entries(schema.attributes).filter(([name, def]) => def.derivedFrom && typeof attributes[name] === 'string');
    if (slugs.length === 0) return this.result(ctx, 'created', (await insert(''))[0]);
    // Slugs are taken optimistically: the name's own slug first, and the unique index decides (no
    // lock, no look-up), so creates of different names never wait for each other. A create whose
    // slug is taken (by a stored record or a concurrent create) takes turns with the other losers
    // (each then sees the previous one's commit) and looks for the next free one. The last attempt
    // inserts plainly, so a conflict on another unique key surfaces as its own error.
    for (let attempt = 1; ; attempt++) {
      const [inserted] = await insert(attempt < SLUG_ATTEMPTS ? 'ON CONFLICT DO NOTHING ' : '');
      if (inserted) return this.result(ctx, 'created', inserted);
      if (attempt === 1) await this.takeTurns(ctx);
      for (const [name, def] of slugs) {
        row[def.column ?? name] = await this.uniqueSlug(ctx.manager, ctx.organizationId, def.column ?? name, slugify(String(attributes[def.derivedFrom!])));
      }
    }
  }

  /**
   * Creates many records in two statements (their parents' check, one INSERT), for a writer of
   * many at once (the paging engine's timeline lines). The records must have the same attributes
   * given; resources with derived slugs or an appended `position` need a look-up per record and
   * use `create`. Results are in the order of `items`.
   */
  async createMany(ctx: WriteContext, items: readonly { input: Row; parentId?: string }[]): Promise<WriteResult[]> {
    const { schema } = this.def;
    if (items.length === 0) return [];
    if (Object.values(schema.attributes).some((def) => def.derivedFrom) || schema.attributes.position?.type === 'integer') {
      throw new Error(`${schema.type}: createMany does not derive slugs or positions; use create`);
    }
    if (schema.parent && items.some((i) => i.parentId === undefined)) throw new Error(`${schema.type} are created under their ${schema.parent.param}`);
    const parents = schema.parent ? await findParents(ctx.manager, schema.parent, ctx.organizationId, items.map((i) => i.parentId ?? ''), true) : null;
    const rows: Row[] = [];
    for (const { input, parentId } of items) {
      let attributes: Row = schema.parent ? this.checkParent(input, parentId, parents!.get(parentId ?? '')!) : { ...input };
      for (const [name, def] of Object.entries(schema.attributes)) {
        if (def.default !== undefined && attributes[name] === undefined) attributes[name] = def.default;
      }
      if (this.def.rules?.beforeCreate) attributes = await this.def.rules.beforeCreate(attributes, ctx);
      const row: Row = { id: typeof attributes.id === 'string' ? attributes.id : randomUUID(), organization_id: ctx.organizationId, created_at: ctx.now, updated_at: ctx.now };
      for (const [name, def] of Object.entries(schema.attributes)) {
        if (name === 'created_at' || name === 'updated_at') continue;
        // The rows travel as one JSON document: a JSON attribute stays a value, not its text.
        if (name in attributes) row[def.column ?? name] = isJsonAttribute(def) ? (attributes[name] ?? null) : toColumn(def, attributes[name]);
      }
      rows.push(row);
    }
    const columns = Object.keys(rows[0]);
    if (rows.some((row) => Object.keys(row).length !== columns.length || columns.some((c) => !(c in row)))) throw new Error(`${schema.type}: createMany needs the same attributes in every record`);
    const table = quoteIdent(this.def.table);
    const list = columns.map(quoteIdent).join(', ');
    const inserted = (await ctx.manager.query(`INSERT INTO ${table} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::${table}, $1::json) RETURNING *`, [
      JSON.stringify(rows),
    ])) as Row[];
    const byId = new Map(inserted.map((row) => [String(row.id), row]));
    return rows.map((row) => this.result(ctx, 'created', byId.get(String(row.id))!));
  }

  async update(ctx: WriteContext, id: string, changes: Row): Promise<WriteResult> {
    const { schema } = this.def;
    const current = await this.load(ctx.manager, ctx.organizationId, id, true);
    let attributes = { ...changes };
    if (schema.attributes.position?.type === 'integer' && attributes.position === null) delete attributes.position;
    if (this.def.rules?.beforeUpdate) attributes = await this.def.rules.beforeUpdate(current, attributes, ctx);
    const sets: string[] = [];
    const values: unknown[] = [];
    for (const [name, def] of Object.entries(schema.attributes)) {
      if (!(name in attributes) || name === 'created_at' || name === 'updated_at') continue;
      values.push(toColumn(def, attributes[name]));
      sets.push(`${quoteIdent(def.column ?? name)} = $${values.length}`);
    }
    values.push(ctx.now);
    sets.push(`"updated_at" = $${values.length}`);
    values.push(current.id, ctx.organizationId);
    // TypeORM answers an UPDATE with [rows, rowCount].
    const [rows] = await ctx.manager.query(
      `UPDATE ${quoteIdent(this.def.table)} SET ${sets.join(', ')} WHERE id = $${values.length - 1} AND organization_id = $${values.length} RETURNING *`,
      values,
    );
    const result = this.result(ctx, 'updated', rows[0], current);
    const followed = (await this.def.rules?.afterUpdate?.(rows[0], current, ctx)) ?? [];
    return followed.length ? { ...result, events: [...result.events, ...followed] } : result;
  }

  async delete(ctx: WriteContext, id: string): Promise<WriteResult> {
    const current = await this.load(ctx.manager, ctx.organizationId, id, true);
    const ruleEvents = (await this.def.rules?.beforeDelete?.(current, ctx)) ?? [];
    const childEvents = await this.deleteChildren(ctx, String(current.id));
    try {
      await ctx.manager.query(`DELETE FROM ${quoteIdent(this.def.table)} WHERE id = $1 AND organization_id = $2`, [
        current.id,
        ctx.organizationId,
      ]);
    } catch (error) {
      // Records under this one (their foreign key refuses the delete) are deleted first, each
      // with its own event; a cascade in the database would drop them without any.
      if (pgErrorCode(error) !== PG_ERRORS.foreignKeyViolation) throw error;
      const { table } = (error as { driverError?: { table?: string } }).driverError ?? {};
      const detail = `${this.def.schema.singular} ${String(current.id)} still has ${table ?? 'records pointing at it'}; delete them first`;
      throw JsonApiError.of(409, 'Still referenced', detail, 'STILL_REFERENCED');
    }
    const result = this.result(ctx, 'deleted', current);
    return { ...result, events: [...ruleEvents, ...childEvents, ...result.events] };
  }

  /** The records of the declared `children` under this one, deleted first (deepest first): their events. */
  private async deleteChildren(ctx: WriteContext, id: string): Promise<DomainEvent[]> {
    const events: DomainEvent[] = [];
    for (const entry of this.def.children?.() ?? []) {
      const [child, attribute] = 'schema' in entry ? [entry, entry.schema.parent?.attribute] : [entry.definition, entry.attribute];
      const parent = child.schema.parent;
      if ('schema' in entry && (!parent || parent.table !== this.def.table)) throw new Error(`${child.schema.type} is not declared under ${this.def.table}`);
      // The OpenAPI document reads onParentDelete: a child deleted here must say so.
      if ('schema' in entry && parent!.onParentDelete !== 'cascade') throw new Error(`${child.schema.type} is deleted with its ${this.def.table} but declares onParentDelete '${parent!.onParentDelete ?? 'restrict'}'`);
      const column = quoteIdent(child.schema.attributes[attribute!].column ?? attribute!);
      const rows = (await ctx.manager.query(`SELECT id FROM ${quoteIdent(child.table)} WHERE organization_id = $1 AND ${column} = $2 ORDER BY created_at, id`, [
        ctx.organizationId,
        id,
      ])) as { id: string }[];
      const writer = new ResourceWriter(child);
      for (const row of rows) events.push(...(await writer.delete(ctx, String(row.id))).events);
    }
    return events;
  }

  /**
   * Puts a new record under the parent the path names: the parent must exist in the organization
   * (404 otherwise) and is locked until the commit; a parent attribute sent in the body must name
   * the same record (422), as the path decides.
   */
  private async underParent(ctx: WriteContext, input: Row, parentId: string | undefined): Promise<Row> {
    const parent = this.def.schema.parent!;
    if (parentId === undefined) throw new Error(`${this.def.schema.type} are created under their ${parent.param}`);
    return this.checkParent(input, parentId, await findParent(ctx.manager, parent, ctx.organizationId, parentId, true));
  }

  /** The input with the path's parent `id`; a parent attribute sent in the body must name the same record (422). */
  private checkParent(input: Row, parentId: string | undefined, id: string): Row {
    const parent = this.def.schema.parent!;
    const sent = input[parent.attribute];
    if (sent !== undefined && String(sent).toLowerCase() !== id) {
      const detail = `${parent.attribute} must be the ${parent.param} of the path (${parentId}) or be left out`;
      throw JsonApiError.invalidAttributes([{ attribute: parent.attribute, detail, code: 'PARENT_MISMATCH' }]);
    }
    return { ...input, [parent.attribute]: id };
  }

  /** A stored row as its events carry it (sensitive values redacted). */
  snapshot(row: Row): Snapshot {
    return redacted(this.def.schema, toSnapshot(this.def.schema, row), 'events');
  }

  /** Loads one row of the caller's organization by uuid or slug; another tenant's id is a 404. */

  async load(manager: EntityManager, organizationId: string, id: string, forUpdate = false): Promise<Row> {
    const bySlug = !isUuid(id) && 'slug' in this.def.schema.attributes;
    if (!bySlug && !isUuid(id)) throw JsonApiError.notFound(this.def.schema.type, id);
    const [row] = await manager.query(
      `SELECT * FROM ${quoteIdent(this.def.table)} WHERE ${bySlug ? '"slug"' : 'id'} = $1 AND organization_id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
      [id, organizationId],
    );
    if (!row) throw JsonApiError.notFound(this.def.schema.type, id);
    return row;
  }

  /** `previous`: the row an update changed. */
  private result(ctx: WriteContext, kind: 'created' | 'updated' | 'deleted', row: Row, previous: Row | null = null): WriteResult {
    const { schema } = this.def;
    const stored = toSnapshot(schema, row);
    const payload = redacted(schema, stored, 'events');
    const event = domainEvent({
      type: lifecycleEvents(schema)[kind],
      organizationId: ctx.organizationId,
      aggregateType: schema.type,
      aggregateId: stored.id,
      actor: ctx.actor,
      payload,
      occurredAt: ctx.now,
    });
    const announced = kind === 'deleted' ? [] : (this.def.rules?.announce?.(payload, previous, ctx) ?? []);
    return { snapshot: redacted(schema, stored, 'answers'), events: [event, ...announced], context: this.def.context };
  }

  /**
   * Serializes, until the transaction ends, the writes of this resource in the organization that
   * look before they insert (a free slug, the record of an external id).
   */
  async takeTurns(ctx: WriteContext): Promise<void> {
    await ctx.manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.def.table}:${ctx.organizationId}`]);
  }

  /** The slugs of the derived attributes, as their sources give them (the create makes them unique). */
  private deriveSlugs(attributes: Row): Row {
    for (const [name, def] of Object.entries(this.def.schema.attributes)) {
      const source = def.derivedFrom ? attributes[def.derivedFrom] : undefined;
      if (typeof source === 'string') attributes[name] = slugify(source);
    }
    return attributes;
  }

  private async uniqueSlug(manager: EntityManager, organizationId: string, column: string, base: string): Promise<string> {
    const taken: { s: string }[] = await manager.query(
      `SELECT ${quoteIdent(column)} AS s FROM ${quoteIdent(this.def.table)} WHERE organization_id = $1 AND (${quoteIdent(column)} = $2 OR ${quoteIdent(column)} LIKE $3)`,
      [organizationId, base, `${base}-%`],
    );
    const used = new Set(taken.map((t) => t.s));
    if (!used.has(base)) return base;
    for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
  }
}

/**
 * Changes each of `rows` of `definition` through its writer, in the caller's transaction, in the
 * order given: their events, for a rule that keeps other records in step with the one it writes
 * (a renamed stage in the templates that show its name).
 */
export async function updateEach(ctx: WriteContext, definition: ResourceDefinition, rows: readonly Row[], changes: (row: Row) => Row): Promise<DomainEvent[]> {
  const writer = new ResourceWriter(definition);
  const events: DomainEvent[] = [];
  for (const row of rows) events.push(...(await writer.update(ctx, String(row.id), changes(row))).events);
  return events;
}
