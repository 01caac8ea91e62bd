import { describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { startTestApi, type TestApi, type TestOrganization, type TestResponse } from '../src/testing';
import { useApiWorld } from './support/api-world';
import { created, doc, ids, outboxTypes, pointers, publicOnlyKey, unique, type Attributes } from './support/json-api';

type Json = Record<string, any>;

/** Meeting recordings (docs/meeting-recordings.md) and incident feedbacks. */
describe('meeting recordings and feedbacks over HTTP', () => {
  const w = useApiWorld();
  const { send } = w;

  const newIncident = async (attributes: Attributes = {}, token = w.org.token): Promise<Json> => created(await send('POST', '/v1/incidents', doc('incidents', { title: unique('Outage'), ...attributes }), token));
  const invite = async (incidentId: string, platform = 'zoom', token = w.org.token): Promise<Json> => created(await send('POST', `/v1/incidents/${incidentId}/meeting_recordings?platform=${platform}`, undefined, token));
  const move = (id: string, to: string, token = w.org.token) => send('POST', `/v1/meeting_recordings/${id}/${to}`, undefined, token);
  const status = (res: TestResponse) => res.body.data.attributes.status;
  const IMPORT = { source: 'recall_desktop_sdk', recall_recording_id: '0b9f0a3e-59b4-4cde-9b0a-4c1b0d2f1e11', platform: 'google_meet' };
  const count = async (incidentId: string) => (await send('GET', `/v1/incidents/${incidentId}/meeting_recordings`)).body.meta.total_count;
  /** A 422 naming `attribute` (pointer or parameter). */
  const refused = (res: TestResponse, attribute: string) => {
    assert.equal(res.status, 422, JSON.stringify(res.body));
    const error = res.body.errors[0];
    assert.ok(error.source?.pointer === `/data/attributes/${attribute}` || error.source?.parameter === attribute, JSON.stringify(error));
    assert.match(error.detail, new RegExp(attribute));
  };

  test('an invite makes a pending session 1, a re-invite after it ends session 2; the incident lists them by session number', async () => {
    const incident = await newIncident();
    const first = await invite(incident.id);
    assert.deepEqual(
      [first.attributes.status, first.attributes.session_number, first.attributes.platform, first.attributes.created_by, first.attributes.started_at, first.attributes.has_video, first.attributes.incident_id],
      ['pending', 1, 'zoom', 'recall_bot', null, false, incident.id],
    );
    // One active session per platform.
    refused(await send('POST', `/v1/incidents/${incident.id}/meeting_recordings?platform=zoom`), 'platform');
    const teams = await invite(incident.id, 'microsoft_teams');
    assert.equal(teams.attributes.session_number, 1);
    assert.equal(status(await move(first.id, 'stop')), 'completed');
    const second = await invite(incident.id);
    assert.equal(second.attributes.session_number, 2);
    const list = await send('GET', `/v1/incidents/${incident.id}/meeting_recordings?page[size]=2`);
    assert.equal(list.status, 200);
    assert.deepEqual(ids(list), [first.id, teams.id]);
    assert.equal(list.body.meta.total_count, 3);
    assert.equal((await send('GET', `/v1/meeting_recordings/${second.id}`)).body.data.attributes.session_number, 2);
    assert.deepEqual(await outboxTypes(w.api, first.id), ['meeting_recording.created', 'meeting_recording.updated']);
  });

  test('the moves: resume starts a pending session, pause and resume, stop ends it with its duration; impossible moves are 422s naming status', async () => {
    const incident = await newIncident();
    const rec = await invite(incident.id);
    refused(await move(rec.id, 'pause'), 'status');
    const started = await move(rec.id, 'resume');
    assert.equal(status(started), 'recording');
    assert.ok(started.body.data.attributes.started_at);
    refused(await move(rec.id, 'resume'), 'status');
    assert.equal(status(await move(rec.id, 'pause')), 'paused');
    refused(await move(rec.id, 'pause'), 'status');
    assert.equal(status(await move(rec.id, 'resume')), 'recording');
    assert.equal(status(await move(rec.id, 'pause')), 'paused');
    const stopped = await move(rec.id, 'stop');
    assert.deepEqual([status(stopped), stopped.body.data.attributes.duration_minutes, typeof stopped.body.data.attributes.ended_at], ['completed', 0, 'string']);
    for (const to of ['pause', 'resume', 'stop', 'leave']) refused(await move(rec.id, to), 'status');
    // leave ends a recording session too; stop ends a pending one that never started.
    const left = await invite(incident.id);
    await move(left.id, 'resume');
    assert.equal(status(await move(left.id, 'leave')), 'completed');
    const never = await invite(incident.id);
    const ended = await move(never.id, 'stop');
    assert.deepEqual([status(ended), ended.body.data.attributes.started_at, ended.body.data.attributes.duration_minutes], ['completed', null, null]);
    assert.equal((await move('0b9f0a3e-59b4-4cde-9b0a-4c1b0d2f1e99', 'stop')).status, 404);
  });

  test('a delete needs an ended recording; the video can go while the transcript stays', async () => {
    const incident = await newIncident();
    const active = await invite(incident.id);
    refused(await send('DELETE', `/v1/meeting_recordings/${active.id}`), 'status');
    refused(await send('DELETE', `/v1/meeting_recordings/${active.id}/delete_video`), 'status');
    assert.equal((await send('GET', `/v1/meeting_recordings/${active.id}`)).status, 200);
    await move(active.id, 'stop');
    refused(await send('DELETE', `/v1/meeting_recordings/${active.id}/delete_video`), 'has_video');
    const deleted = await send('DELETE', `/v1/meeting_recordings/${active.id}`);
    assert.deepEqual([deleted.status, deleted.body.data.id], [200, active.id]);
    assert.equal((await send('GET', `/v1/meeting_recordings/${active.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, active.id), ['meeting_recording.created', 'meeting_recording.updated', 'meeting_recording.deleted']);

    const withVideo = created(await send('POST', `/v1/incidents/${incident.id}/meeting_recordings/import`, { ...IMPORT, video_url: 'https://media.example.com/r.mp4', transcript_summary: 'We rolled back', word_count: 120 }));
    assert.equal(withVideo.attributes.has_video, true);
    const cut = await send('DELETE', `/v1/meeting_recordings/${withVideo.id}/delete_video`);
    assert.equal(cut.status, 200);
    assert.deepEqual(
      [cut.body.data.attributes.has_video, cut.body.data.attributes.video_url, cut.body.data.attributes.transcript_summary, cut.body.data.attributes.word_count],
      [false, null, 'We rolled back', 120],
    );
    // An incident's recording is not a standalone session.
    assert.equal((await send('DELETE', `/v1/meeting_recordings/${withVideo.id}/delete_session`)).status, 404);
  });

  test('import stores a completed recording from the reference document (flat or wrapped); bad input is a 422 naming the field, nothing written', async () => {
    const incident = await newIncident();
    const res = await send('POST', `/v1/incidents/${incident.id}/meeting_recordings/import`, {
      ...IMPORT,
      meeting_url: 'https://meet.google.com/abc',
      started_at: '2026-01-01T10:00:00Z',
      ended_at: '2026-01-01T10:42:20Z',
    });
    const rec = created(res);
    assert.deepEqual(
      [rec.attributes.status, rec.attributes.platform, rec.attributes.duration_minutes, rec.attributes.meeting_url, rec.attributes.session_number, rec.attributes.created_by, rec.attributes.has_video],
      ['completed', 'google_meet', 42, 'https://meet.google.com/abc', 1, 'desktop_sdk', false],
    );
    const wrapped = created(await send('POST', `/v1/incidents/${incident.id}/meeting_recordings/import`, doc('meeting_recordings', IMPORT)));
    assert.equal(wrapped.attributes.session_number, 2);
    const before = await count(incident.id);
    const { recall_recording_id: _, ...noId } = IMPORT;
    refused(await send('POST', `/v1/incidents/${incident.id}/meeting_recordings/import`, noId), 'recall_recording_id');
    refused(await send('POST', `/v1/incidents/${incident.id}/meeting_recordings/import`, { ...IMPORT, platform: 'skype' }), 'platform');
    refused(await send('POST', `/v1/incidents/${incident.id}/meeting_recordings/import`, { ...IMPORT, source: 'upload' }), 'source');
    refused(await send('POST', `/v1/incidents/${incident.id}/meeting_recordings/import`, { ...IMPORT, started_at: '2026-01-01T10:00:00Z', ended_at: '2026-01-01T09:00:00Z' }), 'ended_at');
    refused(await send('POST', `/v1/incidents/${incident.id}/meeting_recordings`), 'platform');
    refused(await send('POST', `/v1/incidents/${incident.id}/meeting_recordings?platform=skype`), 'platform');
    assert.equal(await count(incident.id), before);
  });

  test('a standalone session: started recording, its owner\'s only, listed with the plain filters, deleted as a session', async () => {
    const started = await send('POST', '/v1/meeting_recordings/start_session', { platform: 'webex', title: 'Desk call' });
    assert.equal(started.status, 201);
    const { session_id: id, meeting_recording_id: recordingId, stream_token: token } = started.body.data;
    assert.equal(id, recordingId);
    assert.ok(typeof token === 'string' && token.length > 20);
    const rec = (await send('GET', `/v1/meeting_recordings/${id}`)).body.data;
    assert.deepEqual([rec.attributes.status, rec.attributes.incident_id, rec.attributes.title, rec.attributes.created_by], ['recording', null, 'Desk call', 'desktop_sdk']);
    assert.ok(rec.attributes.started_at);
    // The reference's one include value is taken (and includes nothing); another is a 400.
    assert.deepEqual((await send('GET', `/v1/meeting_recordings/${id}?include=transcript`)).body.data, rec);
    const unknown = await send('GET', `/v1/meeting_recordings/${id}?include=speakers`);
    assert.deepEqual([unknown.status, unknown.body.errors[0].source.parameter], [400, 'include']);
    refused(await send('POST', '/v1/meeting_recordings/start_session', { title: 'no platform' }), 'platform');
    assert.ok(ids(await send('GET', '/v1/meeting_recordings?status=recording&platform=webex&created_by=desktop_sdk&page[size]=100')).includes(id));
    assert.ok(!ids(await send('GET', '/v1/meeting_recordings?status=completed&page[size]=100')).includes(id));
    // Another caller of the organization does not see it.
    const key = await publicOnlyKey(w.api, w.org);
    assert.equal((await send('GET', `/v1/meeting_recordings/${id}`, undefined, key)).status, 404);
    assert.ok(!ids(await send('GET', '/v1/meeting_recordings?page[size]=100', undefined, key)).includes(id));
    assert.equal((await send('DELETE', `/v1/meeting_recordings/${id}/delete_session`, undefined, key)).status, 404);
    refused(await send('DELETE', `/v1/meeting_recordings/${id}/delete_session`), 'status');
    await move(id, 'stop');
    const gone = await send('DELETE', `/v1/meeting_recordings/${id}/delete_session`);
    assert.equal(gone.status, 204);
    assert.equal((await send('GET', `/v1/meeting_recordings/${id}`)).status, 404);
  });

  test('a private incident\'s recordings answer 404 and are never listed for a caller who may not read it', async () => {
    const secret = await newIncident({ private: true });
    const rec = await invite(secret.id);
    const key = await publicOnlyKey(w.api, w.org);
    assert.equal((await send('GET', `/v1/incidents/${secret.id}/meeting_recordings`, undefined, key)).status, 404);
    assert.equal((await send('POST', `/v1/incidents/${secret.id}/meeting_recordings?platform=zoom`, undefined, key)).status, 404);
    assert.equal((await send('GET', `/v1/meeting_recordings/${rec.id}`, undefined, key)).status, 404);
    assert.equal((await move(rec.id, 'stop', key)).status, 404);
    assert.ok(!ids(await send('GET', '/v1/meeting_recordings?page[size]=100', undefined, key)).includes(rec.id));
    assert.ok(ids(await send('GET', '/v1/meeting_recordings?page[size]=100')).includes(rec.id));
  });

  test('an incident\'s delete deletes its recordings (active ones too) and feedbacks, each with its event', async () => {
    const incident = await newIncident();
    const rec = await invite(incident.id);
    const feedback = created(await send('POST', `/v1/incidents/${incident.id}/feedbacks`, doc('incident_feedbacks', { rating: 3, feedback: 'Fine' })));
    assert.equal((await send('DELETE', `/v1/incidents/${incident.id}`)).status, 200);
    assert.equal((await send('GET', `/v1/meeting_recordings/${rec.id}`)).status, 404);
    assert.equal((await send('GET', `/v1/feedbacks/${feedback.id}`)).status, 404);
    assert.deepEqual(await outboxTypes(w.api, rec.id), ['meeting_recording.created', 'meeting_recording.deleted']);
    assert.deepEqual(await outboxTypes(w.api, feedback.id), ['incident_feedback.created', 'incident_feedback.deleted']);
  });

  test('feedbacks: created under the incident with defaults, listed, read and changed; bad input is a 422 naming the field', async () => {
    const incident = await newIncident();
    const path = `/v1/incidents/${incident.id}/feedbacks`;
    const feedback = created(await send('POST', path, doc('incident_feedbacks', { rating: 4, feedback: 'Great coordination' })));
    assert.deepEqual([feedback.attributes.rating, feedback.attributes.anonymous, feedback.attributes.incident_id], [4, false, incident.id]);
    assert.deepEqual(ids(await send('GET', path)), [feedback.id]);
    const changed = await send('PUT', `/v1/feedbacks/${feedback.id}`, doc('incident_feedbacks', { rating: 1, anonymous: true }));
    assert.deepEqual([changed.status, changed.body.data.attributes.rating, changed.body.data.attributes.anonymous, changed.body.data.attributes.feedback], [200, 1, true, 'Great coordination']);
    for (const [attributes, attribute] of [
      [{ rating: 5, feedback: 'x' }, 'rating'],
      [{ rating: 2 }, 'feedback'],
    ] as const) {
      const res = await send('POST', path, doc('incident_feedbacks', attributes));
      assert.equal(res.status, 422);
      assert.deepEqual(pointers(res), [`/data/attributes/${attribute}`]);
    }
    assert.equal((await send('PUT', `/v1/feedbacks/${feedback.id}`, doc('incident_feedbacks', { rating: 9 }))).status, 422);
    assert.deepEqual(ids(await send('GET', path)), [feedback.id]);
    assert.equal((await send('GET', `/v1/feedbacks/${feedback.id}`)).body.data.attributes.rating, 1);
    const secret = await newIncident({ private: true });
    const hidden = created(await send('POST', `/v1/incidents/${secret.id}/feedbacks`, doc('incident_feedbacks', { rating: 2, feedback: 'Hidden' })));
    // A role that reads feedbacks and incidents, not private ones.
    const permissions = { incidents_permissions: ['read'], incident_feedbacks_permissions: ['read'] };
    const role = created(await send('POST', '/v1/roles', doc('roles', { name: unique('Feedback reader'), ...permissions })));
    const key = await w.api.issueApiKey(w.org.organizationId, { kind: 'global', roleId: role.id });
    assert.deepEqual(ids(await send('GET', path, undefined, key)), [feedback.id]);
    assert.equal((await send('GET', `/v1/incidents/${secret.id}/feedbacks`, undefined, key)).status, 404);
    assert.equal((await send('GET', `/v1/feedbacks/${hidden.id}`, undefined, key)).status, 404);
    assert.equal((await send('DELETE', `/v1/feedbacks/${hidden.id}`)).status, 200);
    assert.deepEqual(await outboxTypes(w.api, hidden.id), ['incident_feedback.created', 'incident_feedback.deleted']);
  });

  test('another organization\'s recordings and feedbacks answer 404 and are never listed', async () => {
    const incident = await newIncident();
    const rec = await invite(incident.id);
    const feedback = created(await send('POST', `/v1/incidents/${incident.id}/feedbacks`, doc('incident_feedbacks', { rating: 2, feedback: 'Ok' })));
    const theirs = (method: string, path: string) => send(method, path, undefined, w.other.token);
    for (const [method, path] of [
      ['GET', `/v1/meeting_recordings/${rec.id}`],
      ['POST', `/v1/meeting_recordings/${rec.id}/stop`],
      ['DELETE', `/v1/meeting_recordings/${rec.id}`],
      ['DELETE', `/v1/meeting_recordings/${rec.id}/delete_video`],
      ['GET', `/v1/incidents/${incident.id}/meeting_recordings`],
      ['POST', `/v1/incidents/${incident.id}/meeting_recordings?platform=zoom`],
      ['GET', `/v1/feedbacks/${feedback.id}`],
      ['GET', `/v1/incidents/${incident.id}/feedbacks`],
    ]) {
      assert.equal((await theirs(method, path)).status, 404, `${method} ${path}`);
    }
    assert.ok(!ids(await theirs('GET', '/v1/meeting_recordings?page[size]=100')).includes(rec.id));
    assert.equal(status(await send('GET', `/v1/meeting_recordings/${rec.id}`)), 'pending');
  });
});
