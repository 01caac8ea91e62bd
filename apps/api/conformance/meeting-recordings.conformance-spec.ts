import { describe, test } from '@jest/globals';
import type { TestResponse } from '../src/testing';
import { useApiWorld } from '../test/support/api-world';
import { unique as named } from '../test/support/json-api';
import { validateAgainstReference } from '../test/support/openapi-ajv';
import { assertStatus } from './support/reference-conformance';

/**
 * Meeting recordings and incident feedbacks, by hand: recordings have no generic create or update
 * (their commands decide every attribute) and feedbacks live under an incident. Every answer is
 * checked against the reference's documents.
 */
describe('meeting recordings and incident feedbacks conform to the reference', () => {
  const w = useApiWorld();
  const send = (method: string, path: string, body?: unknown) => w.api.request(method, path, { token: w.org.token, body });
  const conforms = (res: TestResponse, status: number, schema: string, what: string) => {
    assertStatus(res, status, what);
    validateAgainstReference(schema, res.body, what);
  };
  const newIncident = async () => (await send('POST', '/v1/incidents', { data: { type: 'incidents', attributes: { title: named('Outage') } } })).body.data.id as string;

  test('every meeting recording route answers the reference documents', async () => {
    const incident = await newIncident();
    const invited = await send('POST', `/v1/incidents/${incident}/meeting_recordings?platform=zoom`);
    conforms(invited, 201, 'meeting_recording_response', 'POST meeting_recordings');
    const id = invited.body.data.id as string;
    conforms(await send('GET', `/v1/incidents/${incident}/meeting_recordings`), 200, 'meeting_recording_list', 'GET incident meeting_recordings');
    conforms(await send('GET', '/v1/meeting_recordings?status=pending&platform=zoom'), 200, 'meeting_recording_list', 'GET meeting_recordings');
    conforms(await send('GET', `/v1/meeting_recordings/${id}`), 200, 'meeting_recording_response', 'GET meeting_recording');
    for (const move of ['resume', 'pause', 'resume', 'stop']) conforms(await send('POST', `/v1/meeting_recordings/${id}/${move}`), 200, 'meeting_recording_response', move);
    conforms(await send('POST', `/v1/meeting_recordings/${id}/pause`), 422, 'errors_list', 'pause a completed recording');
    const body = { source: 'recall_desktop_sdk', recall_recording_id: '6f1c1e9a-0d6b-4a55-9d0e-4b6f5f8f2a10', platform: 'webex', started_at: '2026-02-01T09:00:00Z', ended_at: '2026-02-01T09:30:00Z', video_url: 'https://media.example.com/v.mp4' };
    const imported = await send('POST', `/v1/incidents/${incident}/meeting_recordings/import`, body);
    conforms(imported, 201, 'meeting_recording_response', 'import');
    conforms(await send('DELETE', `/v1/meeting_recordings/${imported.body.data.id}/delete_video`), 200, 'meeting_recording_response', 'delete_video');
    conforms(await send('POST', `/v1/incidents/${incident}/meeting_recordings/import`, { ...body, platform: 'skype' }), 422, 'errors_list', 'import refused');
    conforms(await send('DELETE', `/v1/meeting_recordings/${id}`), 200, 'meeting_recording_response', 'DELETE meeting_recording');
    const session = await send('POST', '/v1/meeting_recordings/start_session', { platform: 'zoom', title: 'Desk' });
    conforms(session, 201, 'start_session_response', 'start_session');
    const left = await send('POST', `/v1/meeting_recordings/${session.body.data.meeting_recording_id}/leave`);
    conforms(left, 200, 'meeting_recording_response', 'leave');
    assertStatus(await send('DELETE', `/v1/meeting_recordings/${left.body.data.id}/delete_session`), 204, 'delete_session');
    conforms(await send('GET', `/v1/meeting_recordings/${left.body.data.id}`), 404, 'errors_list', 'GET a deleted session');
  });

  test('every feedback route answers the reference documents', async () => {
    const incident = await newIncident();
    const made = await send('POST', `/v1/incidents/${incident}/feedbacks`, { data: { type: 'incident_feedbacks', attributes: { rating: 3, feedback: 'Smooth', anonymous: true } } });
    conforms(made, 201, 'incident_feedback_response', 'POST feedbacks');
    conforms(await send('GET', `/v1/incidents/${incident}/feedbacks`), 200, 'incident_feedback_list', 'GET feedbacks');
    conforms(await send('GET', `/v1/feedbacks/${made.body.data.id}`), 200, 'incident_feedback_response', 'GET feedback');
    conforms(await send('PUT', `/v1/feedbacks/${made.body.data.id}`, { data: { type: 'incident_feedbacks', attributes: { rating: 0 } } }), 200, 'incident_feedback_response', 'PUT feedback');
    conforms(await send('POST', `/v1/incidents/${incident}/feedbacks`, { data: { type: 'incident_feedbacks', attributes: { rating: 7, feedback: 'x' } } }), 422, 'errors_list', 'POST feedback refused');
  });
});
