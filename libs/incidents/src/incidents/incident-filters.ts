import { catalogIdsNamed } from '@taproot/catalog';
import { teamIdsNamed } from '@taproot/identity';
import type { VirtualFilter } from '@taproot/json-api';
import { ALIAS_FILTERS, NAME_FILTERS, type IncidentFilter, type IncidentFilterNames } from './incident.schema';

/**
 * How each name and alias filter becomes a condition on the stored id lists
 * (`rewriteVirtualFilters`): names are looked up as ids in the organization, by the context that
 * owns the records (teams: identity; the others: catalog).
 */
const LOOKUPS = {
  ...Object.fromEntries(
    Object.entries(NAME_FILTERS).map(([name, { target, type, by }]): [string, VirtualFilter] => [
      name,
      { target, named: (db, organizationId, values) => (type === 'groups' ? teamIdsNamed(db, organizationId, values, by) : catalogIdsNamed(db, organizationId, type, values, by)) },
    ]),
  ),
  ...Object.fromEntries(Object.entries(ALIAS_FILTERS).map(([name, { target }]): [string, VirtualFilter] => [name, { target }])),
} as Readonly<Record<IncidentFilter, VirtualFilter>>;

/**
 * The rewrites of a list's name and alias filters, by their parameter there (`names`): what its
 * reader hands `rewriteVirtualFilters` (incidents, post mortems).
 */
export const incidentFilterLookups = (names: IncidentFilterNames): Record<string, VirtualFilter> =>
  Object.fromEntries(Object.entries(names).map(([parameter, filter]) => [parameter, LOOKUPS[filter]]));
