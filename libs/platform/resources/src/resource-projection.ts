import { isJsonAttribute, type ResourceSchema } from '@taproot/json-api';
import { quoteIdent } from '@taproot/persistence';
import { topicOf, type DomainEvent, type Projection } from '@taproot/messaging';
import type { EntityManager } from 'typeorm';
import { lifecycleEvents, type ResourceDefinition } from './resource-definition';


/**
 * The read model of a declared resource, maintained from its lifecycle events: one row per
 * record with a column per attribute, indexed for the list's sorts. Events carry full
 * snapshots, so applying one is an upsert (or a delete) and order per aggregate suffices.
 */
export class ResourceListProjection implements Projection {
  readonly name: string;
  readonly topics: string[];
  private readonly types: ReturnType<typeof lifecycleEvents>;

  constructor(private readonly def: ResourceDefinition) {
    this.name = `${def.schema.readTable}.projection`;
    this.topics = [topicOf(def.context)];
    this.types = lifecycleEvents(def.schema);
  }

  handles(eventType: string): boolean {
    return eventType === this.types.created || eventType === this.types.updated || eventType === this.types.deleted;
  }

  async apply(event: DomainEvent, manager: EntityManager): Promise<void> {
    const schema: ResourceSchema = this.def.schema;
    const table = quoteIdent(schema.readTable);
    if (event.type === this.types.deleted) {
      await manager.query(`DELETE FROM ${table} WHERE id = $1 AND organization_id = $2`, [
        event.aggregate_id,
        event.organization_id,
      ]);
      return;
    }
    const snapshot = event.payload as Record<string, unknown>;
    const row: Record<string, unknown> = { id: event.aggregate_id, organization_id: event.organization_id };
    for (const [name, def] of Object.entries(schema.attributes)) {
      const value = snapshot[name] ?? null;
      row[def.column ?? name] = value !== null && isJsonAttribute(def) ? JSON.stringify(value) : value;
    }
    const columns = Object.keys(row);
    const updates = columns.filter((c) => c !== 'id').map((c) => `${quoteIdent(c)} = EXCLUDED.${quoteIdent(c)}`);
    await manager.query(
      `INSERT INTO ${table} (${columns.map(quoteIdent).join(', ')}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(', ')})
       ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}`,
      columns.map((c) => row[c]),
    );
  }
}
