import { catalogIdsByIdOrSlug, type CatalogType } from '@taproot/catalog';
import { checkKeyValuePairs, JsonApiError } from '@taproot/json-api';
import { checkReferenced, type KeyedReference, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { IncidentsErrorCode } from '../errors';

const PAIRS = ['labels', 'refs'];

/** The catalog records a pulse names, by id or slug (the hosted CLI sends what its user typed: `--services elasticsearch-prod`). */
const byIdOrSlug = (type: CatalogType, noun: string): KeyedReference => ({
  noun,
  code: IncidentsErrorCode.UnknownReference,
  resolve: (db, organizationId, values) => catalogIdsByIdOrSlug(db, organizationId, type, values),
});
const REFERENCES = { service_ids: byIdOrSlug('services', 'service'), environment_ids: byIdOrSlug('environments', 'environment') };

const instant = (value: unknown): number => new Date(value as string | Date).getTime();

/** A pulse as it will be stored must not end before it starts. */
export function checkTimeOrder(pulse: Row): void {
  if (pulse.ended_at == null || instant(pulse.ended_at) >= instant(pulse.started_at)) return;
  throw JsonApiError.invalidAttributes([{ attribute: 'ended_at', detail: `ended_at (${String(pulse.ended_at)}) must not be before started_at`, code: IncidentsErrorCode.TimeOrder }]);
}

/** The pairs' shape, then the records named, as a write sends them; their ids replace the slugs. */
async function checked(attributes: Row, ctx: WriteContext): Promise<Row> {
  checkKeyValuePairs(attributes, PAIRS);
  return checkReferenced(ctx, attributes, REFERENCES);
}

/**
 * A pulse is a point in time: without `started_at` (or with null) it started when it was created.
 * On update only what is sent is checked, the time order against the stored other end.
 */
export const PULSE_RULES: ResourceDefinition['rules'] = {
  async beforeCreate(attributes, ctx) {
    const pulse = await checked(attributes, ctx);
    pulse.started_at ??= ctx.now;
    checkTimeOrder(pulse);
    return pulse;
  },
  async beforeUpdate(current, changes, ctx) {
    const change = await checked(changes, ctx);
    if (change.started_at === null) change.started_at = current.created_at;
    checkTimeOrder({ ...current, ...change });
    return change;
  },
};
