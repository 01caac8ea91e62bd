export { MEETING_RECORDING_HANDLERS } from './meeting-recording-commands';
export { meetingRecordingDefinition } from './meeting-recording.schema';
export { MeetingRecordingsController } from './meeting-recordings.controller';
export { MEETING_RECORDINGS_OPENAPI } from './meeting-recordings.openapi';
