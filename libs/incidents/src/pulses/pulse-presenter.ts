import { catalogRecords, type CatalogType } from '@taproot/catalog';
import type { Queryable, ResourceObject } from '@taproot/json-api';
import { snapshotObject, type Keep, type WriteContext, type WriteResult } from '@taproot/resources';
import { pulseSchema, pulseStorageSchema } from './pulse.schema';

/** The records a pulse embeds: by answer attribute, the stored id list naming them and their catalog type. */
const EMBEDDED: Record<string, { from: string; type: CatalogType }> = {
  services: { from: 'service_ids', type: 'services' },
  environments: { from: 'environment_ids', type: 'environments' },
};

const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/**
 * Pulses as the API answers them (the hosted API's `pulse`): the stored attributes plus
 * `services` and `environments`, each record as its own GET answers it with its `id`, looked up
 * through the catalog's port as incidents' embedded records are, one query per type for a whole
 * page. A record deleted since is left out (its id stays in the stored list).
 */
export async function presentPulses(db: Queryable, organizationId: string, pulses: readonly ResourceObject[]): Promise<ResourceObject[]> {
  const related = new Map<string, Map<string, ResourceObject>>();
  for (const [name, { from, type }] of Object.entries(EMBEDDED)) related.set(name, await catalogRecords(db, organizationId, type, [...new Set(pulses.flatMap((p) => idsOf(p.attributes[from])))]));
  return pulses.map((pulse) => {
    const attributes = Object.fromEntries(
      Object.keys(pulseSchema.attributes).map((name) => {
        const records = related.get(name);
        if (!records) return [name, pulse.attributes[name] ?? null];
        return [name, idsOf(pulse.attributes[EMBEDDED[name].from]).flatMap((id) => (records.has(id) ? [{ id, ...records.get(id)!.attributes }] : []))];
      }),
    );
    return { ...pulse, attributes };
  });
}

/**
 * Keeps a write's events with the pulse as the API answers it as their payload (as incidents'
 * events carry their embedded records), and answers it.
 */
export async function announcePulse(ctx: WriteContext, result: WriteResult, keep: Keep): Promise<ResourceObject> {
  const [pulse] = await presentPulses(ctx.manager, ctx.organizationId, [snapshotObject(pulseStorageSchema, result.snapshot)]);
  keep({ ...result, events: result.events.map((event) => ({ ...event, payload: { id: pulse.id, ...pulse.attributes } })) });
  return pulse;
}
