import { afterAll as after, beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { weeklySchedule } from '../test/support/schedules';
import { referenceValidator, validateAgainstReference } from '../test/support/openapi-ajv';

const DAY = 24 * 3_600_000;

/**
 * Shift coverage requests against the REFERENCE document: a `new_shift_coverage_request` with
 * every attribute is accepted, and the create (a list), the lists per schedule and across
 * schedules, the get and the delete answer `shift_coverage_request_list` and
 * `shift_coverage_request_response`; the refusals answer `errors_list`.
 */
describe('shift coverage requests conform to the reference', () => {
  let api: TestApi;
  let org: TestOrganization;
  before(async () => {
    api = await startTestApi();
    org = await api.newOrganization();
  });
  after(() => api?.close());

  const send = (method: string, path: string, body?: unknown) => api.request(method, path, { token: org.token, body });
  const check = (res: TestResponse, status: number, schema: string, what: string) => {
    assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
    validateAgainstReference(schema, res.body, what);
  };

  test('create, list, get and delete answer the reference documents', async () => {
    const user = await api.addUser(org.organizationId, { roleKind: 'user' });
    const { scheduleId } = await weeklySchedule(api, org.token, { members: [user], owner: user });
    const from = Math.ceil((Date.now() + 7 * DAY) / DAY) * DAY;
    const body = { data: { type: 'shift_coverage_requests', attributes: { starts_at: new Date(from).toISOString(), ends_at: new Date(from + 10 * DAY).toISOString(), user_id: user } } };
    referenceValidator().assertValid('new_shift_coverage_request', body, 'the request document');

    const path = `/v1/schedules/${scheduleId}/shift_coverage_requests`;
    const created = await send('POST', path, body);
    check(created, 201, 'shift_coverage_request_list', `POST ${path}`);
    assert.ok(created.body.data.length >= 2, 'a range across a handoff');
    const id = created.body.data[0].id;
    check(await send('GET', path), 200, 'shift_coverage_request_list', `GET ${path}`);
    check(await send('GET', '/v1/shift_coverage_requests'), 200, 'shift_coverage_request_list', 'GET /v1/shift_coverage_requests');
    check(await send('GET', `/v1/shift_coverage_requests/${id}`), 200, 'shift_coverage_request_response', 'GET /v1/shift_coverage_requests/{id}');
    check(await send('DELETE', `/v1/shift_coverage_requests/${id}`), 200, 'shift_coverage_request_response', 'DELETE /v1/shift_coverage_requests/{id}');
    check(await send('GET', `/v1/shift_coverage_requests/${id}`), 404, 'errors_list', 'GET of a deleted request');
    check(await send('POST', path, { data: { type: 'shift_coverage_requests', attributes: { starts_at: body.data.attributes.ends_at, ends_at: body.data.attributes.starts_at } } }), 422, 'errors_list', 'a range ending before it starts');
  });
});
