import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import type { ListFilter } from './list-query';
import { rewriteVirtualFilters, type VirtualFilter } from './virtual-filters';

const ORG = '11111111-1111-4111-8111-111111111111';
const ID = '0E3B0B8A-4C1F-4B7A-9C63-6F0A1D2E3F40';
const db = { query: async () => [] };
const filter = (attribute: string, values: string[], operator: ListFilter['operator'] = 'eq'): ListFilter => ({ attribute, operator, values, parameter: `filter[${attribute}]` });

/** A lookup that knows one name and records what it was asked, in which organization. */
function lookup() {
  const asked: { organizationId: string; values: string[] }[] = [];
  const named: VirtualFilter['named'] = async (_db, organizationId, values) => {
    asked.push({ organizationId, values });
    return values.includes('Payments') ? ['p-id'] : [];
  };
  return { asked, named };
}

describe('rewriteVirtualFilters', () => {
  test('a name filter becomes a condition on the target with the ids the names name, in the organization', async () => {
    const { asked, named } = lookup();
    const [rewritten] = await rewriteVirtualFilters(db, ORG, [filter('services', ['Payments', 'nope'], 'not_in')], { services: { target: 'service_ids', named } });
    assert.deepEqual(rewritten, { attribute: 'service_ids', operator: 'not_in', values: ['p-id'], parameter: 'filter[services]' });
    assert.deepEqual(asked, [{ organizationId: ORG, values: ['Payments', 'nope'] }]);
  });

  test('names that name nothing leave no value (match nothing for eq, everything for not_eq)', async () => {
    const { named } = lookup();
    const [rewritten] = await rewriteVirtualFilters(db, ORG, [filter('services', ['nope'])], { services: { target: 'service_ids', named } });
    assert.deepEqual(rewritten.values, []);
  });

  test('with ids, uuid values count as ids (lower-cased) beside the names, once each', async () => {
    const { named } = lookup();
    const [rewritten] = await rewriteVirtualFilters(db, ORG, [filter('services', [ID, ID.toLowerCase(), 'Payments'])], { services: { target: 'service_ids', named, ids: true } });
    assert.deepEqual(rewritten.values, [ID.toLowerCase(), 'p-id']);
    const [without] = await rewriteVirtualFilters(db, ORG, [filter('services', [ID])], { services: { target: 'service_ids', named } });
    assert.deepEqual(without.values, [], 'without ids a uuid is only a name');
  });

  test('an alias keeps its values; other filters are untouched and no lookup runs for them', async () => {
    const { asked, named } = lookup();
    const other = filter('status', ['open']);
    const rewritten = await rewriteVirtualFilters(db, ORG, [filter('labels', ['env:prod']), other], { labels: { target: 'label_pairs' }, services: { target: 'service_ids', named } });
    assert.deepEqual(rewritten, [{ ...filter('labels', ['env:prod']), attribute: 'label_pairs' }, other]);
    assert.equal(asked.length, 0);
  });
});
