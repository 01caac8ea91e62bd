import { defineResource, type AttributeDef, type FilterOperator } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';

export const MEETING_PLATFORMS = ['zoom', 'google_meet', 'microsoft_teams', 'webex'] as const;
export const RECORDING_STATUSES = ['pending', 'recording', 'paused', 'call_ended', 'analyzing', 'completed', 'failed'] as const;
export type RecordingStatus = (typeof RECORDING_STATUSES)[number];
/** A session still capturing (or about to): it is stopped before it or its video is deleted. */
export const ACTIVE_STATUSES: readonly RecordingStatus[] = ['pending', 'recording', 'paused'];
export const IMPORT_SOURCES = ['recall_desktop_sdk'] as const;

const EQUALITY: readonly FilterOperator[] = ['eq', 'in'];
const out = (def: AttributeDef): AttributeDef => ({ ...def, writable: false });

/**
 * A meeting recording session (docs/meeting-recordings.md): under an incident (invited or
 * imported) or standalone (a desktop session, its owner's only). No client writes it through a
 * generic create or update: its commands (invite, start_session, import, pause/resume/stop/leave,
 * the deletes) decide every attribute.
 */
export const meetingRecordingSchema = defineResource({
  type: 'meeting_recordings',
  singular: 'meeting_recording',
  path: '/v1/meeting_recordings',
  readTable: 'meeting_recordings_read',
  defaultSort: 'created_at',
  operations: ['list', 'get', 'delete'],
  operationIds: { list: 'listAllMeetingRecordings', get: 'getMeetingRecording', delete: 'deleteMeetingRecording' },
  attributes: {
    incident_id: out({ type: 'string', format: 'uuid', nullable: true, filter: EQUALITY, description: 'The incident the recording belongs to; null for a standalone session' }),
    title: out({ type: 'string', nullable: true, description: 'Human-readable label for the recording session' }),
    platform: out({ type: 'string', enum: MEETING_PLATFORMS, filter: EQUALITY, description: 'Meeting platform' }),
    session_number: out({ type: 'integer', sortable: true, description: 'Session number within the incident for this platform (starts at 1, increments on re-invite)' }),
    status: out({ type: 'string', enum: RECORDING_STATUSES, filter: EQUALITY, description: 'Current recording lifecycle status' }),
    created_by: out({ type: 'string', nullable: true, filter: EQUALITY, description: 'Source that created the recording (desktop_sdk, recall_bot)' }),
    meeting_url: out({ type: 'string', nullable: true, description: 'Original meeting URL' }),
    started_at: out({ type: 'date-time', nullable: true, description: 'When the recording started (null if it never did)' }),
    ended_at: out({ type: 'date-time', nullable: true, description: 'When the recording ended' }),
    duration_minutes: out({ type: 'integer', nullable: true, description: 'Minutes recorded, pauses left out (null until it ends, or if it never started)' }),
    speaker_count: out({ type: 'integer', default: 0, description: 'Number of unique speakers detected in the transcript' }),
    word_count: out({ type: 'integer', default: 0, description: 'Total word count across all transcript segments' }),
    transcript_summary: out({ type: 'string', nullable: true, description: 'Summary of the meeting transcript (null if none)' }),
    has_video: out({ type: 'boolean', default: false, description: 'Whether a video is attached (delete_video removes it, keeping the transcript)' }),
    video_url: out({ type: 'string', nullable: true, description: 'URL to download the video recording' }),
  },
});

/**
 * The list and get read this view of the read model: who may see each record (`audience`:
 * `incident` for an incident's, the owner for a standalone one) and whether its incident is private.
 */
export const meetingRecordingVisibleSchema = defineResource({
  ...meetingRecordingSchema,
  readTable: 'meeting_recordings_visible',
  attributes: {
    ...meetingRecordingSchema.attributes,
    audience: { type: 'string', writable: false, filter: ['in'] },
    incident_private: { type: 'boolean', writable: false, filter: ['eq'] },
  },
});

/**
 * `POST /v1/incidents/{incident_id}/meeting_recordings/import`: the reference's
 * `import_meeting_recording`, plus what Taproot stores instead of fetching it from the source
 * (title, video_url, transcript_summary, counts).
 */
export const meetingRecordingImportSchema = defineResource({
  type: 'meeting_recordings',
  singular: 'import_meeting_recording',
  path: '/v1/meeting_recordings',
  readTable: 'meeting_recordings_read',
  defaultSort: 'created_at',
  operations: [],
  attributes: {
    source: { type: 'string', enum: IMPORT_SOURCES, required: true, description: 'Import source (currently only "recall_desktop_sdk")' },
    recall_recording_id: { type: 'string', format: 'uuid', required: true, description: 'External recording UUID' },
    platform: { type: 'string', enum: MEETING_PLATFORMS, required: true, description: 'Meeting platform' },
    meeting_url: { type: 'string', nullable: true, description: 'Original meeting URL' },
    started_at: { type: 'date-time', nullable: true, description: 'When the recording started' },
    ended_at: { type: 'date-time', nullable: true, description: 'When the recording ended' },
    title: { type: 'string', nullable: true, maxLength: 255, description: 'Human-readable label (Taproot)' },
    video_url: { type: 'string', format: 'uri', nullable: true, description: 'Where the video can be downloaded (Taproot: stored, not fetched)' },
    transcript_summary: { type: 'string', nullable: true, description: 'Summary of the transcript (Taproot)' },
    word_count: { type: 'integer', minimum: 0, description: 'Total word count of the transcript (Taproot)' },
    speaker_count: { type: 'integer', minimum: 0, description: 'Number of speakers (Taproot)' },
  },
});

/** `POST /v1/meeting_recordings/start_session`: the reference's `start_session_request`. */
export const startSessionSchema = defineResource({
  type: 'meeting_recordings',
  singular: 'start_session',
  path: '/v1/meeting_recordings',
  readTable: 'meeting_recordings_read',
  defaultSort: 'created_at',
  operations: [],
  attributes: {
    platform: { type: 'string', enum: MEETING_PLATFORMS, required: true, description: 'Meeting platform' },
    title: { type: 'string', nullable: true, maxLength: 255, description: 'Human-readable label for the recording session' },
  },
});

export const meetingRecordingDefinition: ResourceDefinition = {
  schema: meetingRecordingSchema,
  context: 'incidents',
  table: 'meeting_recordings',
  // Part of the incident, like its action items: read needs incidents read, writes incidents update.
  permission: { family: 'incidents', writes: 'update' },
};
