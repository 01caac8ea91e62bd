import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { useApiWorld } from './support/api-world';

const w = useApiWorld();
const { send } = w;

/** `GET /v1/statuses` (docs/status-pages.md, "Statuses"). */
describe('statuses', () => {
  test("every new organization has the built-in statuses, in order, with the reference's attributes", async () => {
    const list = await send('GET', '/v1/statuses');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((d: { type: string; attributes: Record<string, unknown> }) => [d.type, d.attributes.slug, d.attributes.name, d.attributes.color, d.attributes.enabled]),
      [
        ['statuses', 'operational', 'Operational', '#16A34A', true],
        ['statuses', 'degraded_performance', 'Degraded Performance', '#CA8A04', true],
        ['statuses', 'partial_outage', 'Partial Outage', '#EA580C', true],
        ['statuses', 'major_outage', 'Major Outage', '#DC2626', true],
        ['statuses', 'under_maintenance', 'Under Maintenance', '#2563EB', true],
      ],
    );
    const first = list.body.data[0];
    assert.deepEqual(Object.keys(first.attributes).sort(), ['color', 'created_at', 'description', 'enabled', 'name', 'slug', 'updated_at']);
    assert.deepEqual((await send('GET', `/v1/statuses/${first.id}`)).body.data, first);
    assert.equal((await send('GET', '/v1/statuses/major_outage')).body.data.attributes.name, 'Major Outage', 'named by slug too');
    assert.deepEqual(
      (await send('GET', '/v1/statuses?filter[slug]=partial_outage')).body.data.map((d: { id: string }) => d.id),
      [list.body.data[2].id],
    );
    assert.equal((await send('GET', '/v1/statuses?filter[enabled]=false')).body.data.length, 0);
  });

  test("read-only; another organization's statuses answer 404", async () => {
    const mine = (await send('GET', '/v1/statuses')).body.data[0];
    assert.equal((await send('GET', `/v1/statuses/${mine.id}`, undefined, w.other.token)).status, 404);
    const theirs = (await send('GET', '/v1/statuses', undefined, w.other.token)).body.data.map((d: { id: string }) => d.id);
    assert.equal(theirs.length, 5);
    assert.ok(!theirs.includes(mine.id));
    assert.notEqual((await send('POST', '/v1/statuses', { data: { type: 'statuses', attributes: { name: 'x' } } })).status, 201);
    assert.notEqual((await send('DELETE', `/v1/statuses/${mine.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/statuses/${mine.id}`)).status, 200);
  });

});
