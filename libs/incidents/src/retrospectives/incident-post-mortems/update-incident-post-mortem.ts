import { CommandHandler } from '@nestjs/cqrs';
import type { Caller } from '@taproot/auth';
import { isJsonAttribute, type AttributeDef } from '@taproot/json-api';
import { domainEvent } from '@taproot/messaging';
import { quoteIdent } from '@taproot/persistence';
import { checkReferenced, lifecycleEvents, ResourceWriteHandler, type ResourceWriteCommand, type Row, type Snapshot } from '@taproot/resources';
import { findIncident, incidentAccess, type IncidentAccess } from '../../incidents/incident-access';
import { CAUSES, incidentPostMortemDefinition, incidentPostMortemSchema } from './incident-post-mortem.schema';

/**
 * `PUT /v1/post_mortems/{id}` (reference: updateIncidentPostmortem): writes the post mortem of the
 * incident `id` (uuid or slug). `attributes` are the validated writable ones; the incident-owned
 * timestamps a client sent were dropped by the parser (spec: ignored, no error).
 */
export class UpdateIncidentPostMortemCommand implements ResourceWriteCommand {
  readonly definition = incidentPostMortemDefinition;
  readonly access: IncidentAccess;
  constructor(
    caller: Caller,
    readonly id: string,
    readonly attributes: Row,
  ) {
    this.access = incidentAccess(caller);
  }
  get organizationId() {
    return this.access.organizationId;
  }
  get actor() {
    return this.access.actor;
  }
  get userId() {
    return this.access.userId;
  }
}

/**
 * Upserts the write row (there is none before the first PUT), then answers the post mortem as the
 * view reads it, with `incident_post_mortem.updated` carrying that snapshot. The incident must be
 * one the caller may see: another organization's, a missing one, and a private one the caller may
 * not read answer 404 (it is locked until the commit, so its delete waits).
 */
@CommandHandler(UpdateIncidentPostMortemCommand)
export class UpdateIncidentPostMortemHandler extends ResourceWriteHandler {
  execute(c: UpdateIncidentPostMortemCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => {
      const incident = await findIncident(ctx.manager, 'incidents', c.access, c.id, true);
      const id = String(incident.id);
      const attributes = await checkReferenced(ctx, c.attributes, { cause_ids: CAUSES });
      const declared: Record<string, AttributeDef> = incidentPostMortemSchema.attributes;
      const written = Object.entries(declared).filter(([name, def]) => name in attributes && (def.writable ?? true) !== false);
      const columns = written.map(([name, def]) => quoteIdent(def.column ?? name));
      const values = written.map(([name, def]) => (attributes[name] == null ? null : isJsonAttribute(def) ? JSON.stringify(attributes[name]) : attributes[name]));
      const placeholders = values.map((_, i) => `$${i + 5}`);
      const updates = [...columns.map((column) => `${column} = EXCLUDED.${column}`), 'updated_at = EXCLUDED.updated_at'];
      await ctx.manager.query(
        `INSERT INTO incident_post_mortems (id, organization_id, created_at, updated_at${columns.map((column) => `, ${column}`).join('')})
         VALUES ($1, $2, $3, $4${placeholders.map((p) => `, ${p}`).join('')})
         ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}`,
        [id, ctx.organizationId, ctx.now, ctx.now, ...values],
      );
      const [row] = (await ctx.manager.query('SELECT * FROM incident_post_mortems_read WHERE id = $1 AND organization_id = $2', [id, ctx.organizationId])) as Row[];
      const snapshot = writer.snapshot(row);
      const event = domainEvent({
        type: lifecycleEvents(incidentPostMortemSchema).updated,
        organizationId: ctx.organizationId,
        aggregateType: incidentPostMortemSchema.type,
        aggregateId: id,
        actor: ctx.actor,
        payload: snapshot,
        occurredAt: ctx.now,
      });
      return keep({ snapshot, events: [event] });
    });
  }
}
