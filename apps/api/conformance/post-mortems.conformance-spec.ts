import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestResponse } from '../src/testing';
import { useApiWorld } from '../test/support/api-world';
import { unique as named } from '../test/support/json-api';
import { referenceValidator, validateAgainstReference } from '../test/support/openapi-ajv';
import { assertStatus } from './support/reference-conformance';

/**
 * Incident post mortems, by hand: one per incident (no create), read from a view and written by an
 * upserting PUT. Every answer is checked against the reference's documents.
 */
describe('incident post mortems conform to the reference', () => {
  const w = useApiWorld();
  const send = (method: string, path: string, body?: unknown) => w.api.request(method, path, { token: w.org.token, body });
  const conforms = (res: TestResponse, status: number, schema: string, what: string) => {
    assertStatus(res, status, what);
    validateAgainstReference(schema, res.body, what);
  };

  test('list, get and put answer the reference documents', async () => {
    const incident = (await send('POST', '/v1/incidents', { data: { type: 'incidents', attributes: { title: named('Outage') } } })).body.data.id as string;
    conforms(await send('GET', '/v1/post_mortems'), 200, 'incident_post_mortem_list', 'GET post_mortems');
    conforms(await send('GET', `/v1/post_mortems/${incident}`), 200, 'incident_post_mortem_response', 'GET post_mortem (never written)');
    const body = {
      data: {
        type: 'incident_post_mortems',
        attributes: { title: 'Checkout outage', status: 'published', show_timeline: false, show_action_items: true, cause_ids: [], started_at: '2026-01-01T00:00:00Z', mitigated_at: null, resolved_at: null },
      },
    };
    validateAgainstReference('update_incident_post_mortem', body, 'the PUT body sent');
    conforms(await send('PUT', `/v1/post_mortems/${incident}`, body), 200, 'incident_post_mortem_response', 'PUT post_mortem');
    conforms(await send('GET', `/v1/post_mortems/${incident}`), 200, 'incident_post_mortem_response', 'GET post_mortem (written)');
    conforms(await send('GET', '/v1/post_mortems?filter[status]=published&sort=-created_at'), 200, 'incident_post_mortem_list', 'GET post_mortems filtered');
    conforms(await send('PUT', `/v1/post_mortems/${incident}`, { data: { type: 'incident_post_mortems', attributes: { status: 'final' } } }), 422, 'errors_list', 'PUT refused');
    conforms(await send('GET', '/v1/post_mortems/00000000-0000-4000-8000-000000000000'), 404, 'errors_list', 'GET missing');
  });

  test('every filter the reference declares for GET /v1/post_mortems is served (200, incident_post_mortem_list)', async () => {
    const list = referenceValidator().document.paths['/v1/post_mortems'].get as { parameters: { name: string }[] };
    const filters = list.parameters.map((p) => p.name).filter((name) => name.startsWith('filter['));
    assert.ok(filters.length >= 30, `the reference declares ${filters.length} post mortem filters`);
    const valueOf = (name: string): string => {
      const attribute = /^filter\[([^\]]+)\]/.exec(name)![1];
      if (attribute.endsWith('_at')) return '2026-01-01T00:00:00Z';
      if (attribute.endsWith('_ids')) return `${randomUUID()},${randomUUID()}`;
      const values: Record<string, string> = { status: 'draft', user_id: '1', search: 'outage' };
      return values[attribute] ?? 'anything';
    };
    const refused: string[] = [];
    for (const name of filters) {
      const res = await send('GET', `/v1/post_mortems?${encodeURIComponent(name)}=${encodeURIComponent(valueOf(name))}`);
      if (res.status !== 200) refused.push(`${name} -> ${res.status} ${JSON.stringify(res.body.errors?.[0]?.detail ?? '')}`);
      else validateAgainstReference('incident_post_mortem_list', res.body, `GET /v1/post_mortems?${name}`);
    }
    assert.deepEqual(refused, []);
  });
});
