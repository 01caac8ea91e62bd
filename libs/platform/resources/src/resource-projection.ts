import { isJsonAttribute } from '@taproot/json-api';
import { quoteIdent } from '@taproot/persistence';
import { topicOf, type DomainEvent, type Projection } from '@taproot/messaging';
import type { EntityManager } from 'typeorm';
import { lifecycleEvents, type ResourceDefinition } from './resource-definition';

/** PostgreSQL's bound on the parameters of one statement. */
const MAX_PARAMETERS = 65_535;


/**
 * The read model of a declared resource, maintained from its lifecycle events: one row per
 * record with a column per attribute, indexed for the list's sorts. Events carry full
 * snapshots, so applying one is an upsert (or a delete) and order per aggregate suffices.
 */
export class ResourceListProjection implements Projection {
  readonly name: string;
  readonly topics: string[];
  private readonly types: ReturnType<typeof lifecycleEvents>;

  /** The upsert's fixed parts, built once: every write applies this projection. */
  private readonly table: string;
  private readonly columns: string[];
  private readonly upsertHead: string;
  private readonly upsertTail: string;

  constructor(private readonly def: ResourceDefinition) {
    this.name = `${def.schema.readTable}.projection`;
    this.topics = [topicOf(def.context)];
    this.types = lifecycleEvents(def.schema);
    this.table = quoteIdent(def.schema.readTable);
    this.columns = ['id', 'organization_id', ...Object.entries(def.schema.attributes).map(([name, d]) => d.column ?? name)];
    this.upsertHead = `INSERT INTO ${this.table} (${this.columns.map(quoteIdent).join(', ')}) VALUES `;
    const updates = this.columns.filter((c) => c !== 'id').map((c) => `${quoteIdent(c)} = EXCLUDED.${quoteIdent(c)}`);
    this.upsertTail = ` ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}`;
  }

  handles(eventType: string): boolean {
    return eventType === this.types.created || eventType === this.types.updated || eventType === this.types.deleted;
  }

  apply(event: DomainEvent, manager: EntityManager): Promise<void> {
    return this.applyBatch([event], manager);
  }

  /**
   * A batch in at most two statements (chunked by the parameter limit): the deletes, and one
   * multi-row upsert. Snapshots are full, so each record's last event in the batch decides its row.
   */
  async applyBatch(events: DomainEvent[], manager: EntityManager): Promise<void> {
    const { attributes } = this.def.schema;
    const { table, columns } = this;
    const last = new Map<string, DomainEvent>();
    for (const event of events) {
      last.delete(event.aggregate_id);
      last.set(event.aggregate_id, event);
    }
    const deleted = [...last.values()].filter((e) => e.type === this.types.deleted);
    // `= ANY($2)` takes the id column's own type (uuid, or a user's integer).
    for (const organizationId of new Set(deleted.map((e) => e.organization_id))) {
      const ids = deleted.filter((e) => e.organization_id === organizationId).map((e) => e.aggregate_id);
      await manager.query(`DELETE FROM ${table} WHERE organization_id = $1 AND id = ANY($2)`, [organizationId, ids]);
    }
    const upserted = [...last.values()].filter((e) => e.type !== this.types.deleted);
    if (upserted.length === 0) return;
    const perInsert = Math.floor(MAX_PARAMETERS / columns.length);
    const writeTable = quoteIdent(this.def.table);
    for (let start = 0; start < upserted.length; start += perInsert) {
      const values: unknown[] = [];
      const rows = upserted.slice(start, start + perInsert).map((event) => {
        const snapshot = event.payload as Record<string, unknown>;
        values.push(event.aggregate_id, event.organization_id);
        const id = `$${values.length - 1}`;
        const row = [id, `$${values.length}`];
        for (const [name, def] of Object.entries(attributes)) {
          // Events carry an answered secret redacted: the read model takes it from the write table.
          if (def.sensitive === 'answered') {
            row.push(`(SELECT ${quoteIdent(def.column ?? name)} FROM ${writeTable} WHERE id = ${id})`);
            continue;
          }
          const value = snapshot[name] ?? null;
          values.push(value !== null && isJsonAttribute(def) ? JSON.stringify(value) : value);
          row.push(`$${values.length}`);
        }
        return `(${row.join(', ')})`;
      });
      await manager.query(`${this.upsertHead}${rows.join(', ')}${this.upsertTail}`, values);
    }
  }
}
