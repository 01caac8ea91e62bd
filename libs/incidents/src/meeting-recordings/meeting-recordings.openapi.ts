import { buildOpenApiDocument } from '@taproot/json-api';
import { MEETING_PLATFORMS, meetingRecordingImportSchema, meetingRecordingSchema, RECORDING_STATUSES } from './meeting-recording.schema';

const TAGS = ['MeetingRecordings'];
const jsonApi = (schema: unknown) => ({ content: { 'application/vnd.api+json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const answer = (description: string, name: string) => ({ description, ...jsonApi(ref(name)) });
const errors = (description: string) => answer(description, 'errors_list');
const query = (name: string, schema: Record<string, unknown>, description: string) => ({ in: 'query', name, required: false, description, schema });
const idParam = (name: string) => ({ in: 'path', name, required: true, schema: { type: 'string' } });
const recording = (description: string) => ({ '200': answer(description, 'meeting_recording_response'), '404': errors('not found'), '422': errors('the recording is in a status that refuses this') });

/** Body members as the reference's flat `import_meeting_recording` declares them, plus Taproot's. */
function importSchema() {
  const generated = buildOpenApiDocument([meetingRecordingImportSchema], { title: 'import', version: '1' }).components.schemas as Record<string, { properties?: { data?: { properties?: { attributes?: unknown } } } }>;
  const attributes = Object.values(generated).find((s) => s.properties?.data?.properties?.attributes)?.properties?.data?.properties?.attributes;
  return attributes ?? { type: 'object' };
}

/**
 * The meeting recording routes the declaration cannot say (docs/meeting-recordings.md): the
 * incident's list and invite, the import, the desktop session, the moves and the partial deletes,
 * under the reference's operation ids and documents.
 */
function meetingRecordingsOpenApi() {
  const generated = buildOpenApiDocument([meetingRecordingSchema], { title: 'meeting recordings', version: '1' }).paths;
  const list = generated['/v1/meeting_recordings'].get as Record<string, unknown>;
  const move = (operationId: string, summary: string) => ({ parameters: [idParam('id')], post: { operationId, summary, tags: TAGS, responses: recording(summary) } });
  return {
    schemas: {
      import_meeting_recording: importSchema(),
      start_session_request: {
        type: 'object',
        properties: { platform: { type: 'string', enum: [...MEETING_PLATFORMS], description: 'Meeting platform (required by Taproot)' }, title: { type: 'string', nullable: true, description: 'Human-readable label for the recording session' } },
      },
      start_session_response: {
        type: 'object',
        properties: {
          data: {
            type: 'object',
            required: ['session_id', 'stream_token', 'meeting_recording_id'],
            properties: {
              meeting_recording_id: { type: 'string', format: 'uuid', description: 'Meeting recording UUID' },
              session_id: { type: 'string', format: 'uuid', description: 'Meeting recording UUID' },
              stream_token: { type: 'string', description: 'Token for the desktop client to stream audio (Taproot takes no stream)' },
            },
          },
        },
      },
    },
    paths: {
      '/v1/meeting_recordings': {
        get: {
          ...list,
          parameters: [
            query('page[number]', { type: 'integer' }, 'Page number'),
            query('page[size]', { type: 'integer' }, 'Recordings per page'),
            query('status', { type: 'string', enum: [...RECORDING_STATUSES] }, 'Filter by status'),
            query('platform', { type: 'string', enum: [...MEETING_PLATFORMS] }, 'Filter by platform'),
            query('created_by', { type: 'string' }, 'Filter by the source that created the recording'),
          ],
        },
      },
      '/v1/incidents/{incident_id}/meeting_recordings': {
        parameters: [idParam('incident_id')],
        get: {
          operationId: 'listMeetingRecordings',
          summary: 'List meeting recordings of an incident, by session number',
          tags: TAGS,
          parameters: [query('page[number]', { type: 'integer' }, 'Page number'), query('page[size]', { type: 'integer' }, 'Recordings per page')],
          responses: { '200': answer('meeting recordings', 'meeting_recording_list'), '404': errors('no such incident') },
        },
        post: {
          operationId: 'createMeetingRecording',
          summary: 'Create a meeting recording session (pending; Taproot sends no bot)',
          tags: TAGS,
          parameters: [{ in: 'query', name: 'platform', required: true, schema: { type: 'string', enum: [...MEETING_PLATFORMS] } }],
          responses: { '201': answer('meeting recording', 'meeting_recording_response'), '404': errors('no such incident'), '422': errors('no platform, or an active session on it') },
        },
      },
      '/v1/incidents/{incident_id}/meeting_recordings/import': {
        parameters: [idParam('incident_id')],
        post: {
          operationId: 'importMeetingRecording',
          summary: 'Import a meeting recording',
          tags: TAGS,
          requestBody: { required: true, ...jsonApi(ref('import_meeting_recording')) },
          responses: { '201': answer('meeting recording', 'meeting_recording_response'), '404': errors('no such incident'), '422': errors('invalid import') },
        },
      },
      '/v1/meeting_recordings/start_session': {
        post: {
          operationId: 'startRecordingSession',
          summary: 'Start a standalone recording session',
          tags: TAGS,
          requestBody: { required: true, ...jsonApi(ref('start_session_request')) },
          responses: { '201': answer('session', 'start_session_response'), '422': errors('invalid session') },
        },
      },
      '/v1/meeting_recordings/{id}/delete_session': {
        parameters: [idParam('id')],
        delete: {
          operationId: 'deleteStandaloneMeetingRecording',
          summary: "Delete a standalone meeting recording (the caller's own)",
          tags: TAGS,
          responses: { '204': { description: 'deleted' }, '404': errors('not found, linked to an incident, or owned by another'), '422': errors('still active') },
        },
      },
      '/v1/meeting_recordings/{id}/delete_video': {
        parameters: [idParam('id')],
        delete: { operationId: 'deleteMeetingRecordingVideo', summary: 'Delete the video of a meeting recording, keeping its transcript', tags: TAGS, responses: recording('meeting recording') },
      },
      '/v1/meeting_recordings/{id}/leave': move('leaveMeetingRecording', 'Leave a meeting call'),
      '/v1/meeting_recordings/{id}/pause': move('pauseMeetingRecording', 'Pause a meeting recording'),
      '/v1/meeting_recordings/{id}/resume': move('resumeMeetingRecording', 'Resume a meeting recording'),
      '/v1/meeting_recordings/{id}/stop': move('stopMeetingRecording', 'Stop a meeting recording'),
    },
  };
}

export const MEETING_RECORDINGS_OPENAPI = meetingRecordingsOpenApi();
