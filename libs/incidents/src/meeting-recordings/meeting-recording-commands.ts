import { randomBytes } from 'node:crypto';
import { CommandHandler } from '@nestjs/cqrs';
import { actorOf, type Caller } from '@taproot/auth';
import { JsonApiError } from '@taproot/json-api';
import type { EventActor } from '@taproot/messaging';
import { ResourceWriteHandler, type ResourceWriteCommand, type ResourceWriter, type Row, type Snapshot, type WriteContext } from '@taproot/resources';
import { ACTIVE_STATUSES, meetingRecordingDefinition, type RecordingStatus } from './meeting-recording.schema';

/** Who owns a standalone session: the caller's user, or the key without one. */
export const ownerOf = (caller: Caller): string => (caller.userId !== null ? `user:${caller.userId}` : `api_key:${caller.apiKeyId ?? 'none'}`);

abstract class RecordingCommand implements ResourceWriteCommand {
  readonly definition = meetingRecordingDefinition;
  readonly organizationId: string;
  readonly actor: EventActor;
  readonly owner: string;
  constructor(caller: Caller) {
    this.organizationId = caller.organizationId;
    this.actor = actorOf(caller);
    this.owner = ownerOf(caller);
  }
}

/** How a recording comes to be: a bot invite under an incident, a desktop session, an import. */
export type RecordingOrigin =
  | { kind: 'invite'; incidentId: string; platform: string }
  | { kind: 'desktop'; platform: string; title: string | null }
  | { kind: 'import'; incidentId: string; attributes: Row };

export class CreateMeetingRecordingCommand extends RecordingCommand {
  constructor(
    caller: Caller,
    readonly origin: RecordingOrigin,
  ) {
    super(caller);
  }
}

export type RecordingMove = 'pause' | 'resume' | 'stop' | 'leave';

export class MoveMeetingRecordingCommand extends RecordingCommand {
  constructor(
    caller: Caller,
    readonly id: string,
    readonly move: RecordingMove,
  ) {
    super(caller);
  }
}

/** `recording`: the whole record; `session`: a standalone one, its owner's; `video`: the video only. */
export class DeleteMeetingRecordingCommand extends RecordingCommand {
  constructor(
    caller: Caller,
    readonly id: string,
    readonly part: 'recording' | 'session' | 'video',
  ) {
    super(caller);
  }
}

/** The moves (docs/meeting-recordings.md): from which statuses each is allowed, and where it goes. */
export const RECORDING_MOVES: Record<RecordingMove, { from: readonly RecordingStatus[]; to: RecordingStatus }> = {
  // No bot joins: resuming a pending session is the caller saying it started.
  resume: { from: ['pending', 'paused'], to: 'recording' },
  pause: { from: ['recording'], to: 'paused' },
  // Nothing to analyze: both end the session at once.
  stop: { from: ['pending', 'recording', 'paused'], to: 'completed' },
  leave: { from: ['pending', 'recording', 'paused'], to: 'completed' },
};

const refuse = (attribute: string, detail: string) => JsonApiError.invalidAttributes([{ attribute, detail }]);

const seconds = (from: unknown, to: Date) => (to.getTime() - new Date(from as string).getTime()) / 1000;

/** Whole minutes recorded between start and end, pauses left out; null if it never started. */
function durationMinutes(startedAt: unknown, endedAt: Date, pausedSeconds: number): number | null {
  if (startedAt == null) return null;
  return Math.max(0, Math.round((seconds(startedAt, endedAt) - pausedSeconds) / 60));
}

/** The next session number of the incident's (or the owner's standalone) recordings on the platform. */
async function nextSession(ctx: WriteContext, incidentId: string | null, platform: string, owner: string): Promise<number> {
  const [row] = (await ctx.manager.query(
    `SELECT COALESCE(MAX(session_number), 0) + 1 AS n FROM meeting_recordings
     WHERE organization_id = $1 AND platform = $2 AND incident_id IS NOT DISTINCT FROM $3::uuid AND ($3::uuid IS NOT NULL OR owner = $4)`,
    [ctx.organizationId, platform, incidentId, owner],
  )) as { n: number }[];
  return Number(row.n);
}

/** A recording of the organization, locked; one the caller may not see was refused by the controller. */
const load = (writer: ResourceWriter, ctx: WriteContext, id: string) => writer.load(ctx.manager, ctx.organizationId, id, true);

const setInternal = (ctx: WriteContext, id: string, sets: string, values: unknown[]) =>
  ctx.manager.query(`UPDATE meeting_recordings SET ${sets} WHERE id = $1 AND organization_id = $2`, [id, ctx.organizationId, ...values]);

@CommandHandler(CreateMeetingRecordingCommand)
export class CreateMeetingRecordingHandler extends ResourceWriteHandler {
  execute(c: CreateMeetingRecordingCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => {
      const { origin } = c;
      const incidentId = origin.kind === 'desktop' ? null : origin.incidentId;
      if (incidentId) await ctx.manager.query('SELECT id FROM incidents WHERE id = $1 AND organization_id = $2 FOR KEY SHARE', [incidentId, ctx.organizationId]);
      const platform = String(origin.kind === 'import' ? origin.attributes.platform : origin.platform);
      // One session sends, per platform: a new invite waits for the active one to end.
      await writer.takeTurns(ctx);
      if (origin.kind === 'invite') {
        const [active] = (await ctx.manager.query('SELECT id FROM meeting_recordings WHERE organization_id = $1 AND incident_id = $2 AND platform = $3 AND status = ANY($4)', [
          ctx.organizationId,
          incidentId,
          platform,
          ACTIVE_STATUSES,
        ])) as { id: string }[];
        if (active) throw refuse('platform', `platform: the incident's ${platform} recording ${active.id} is still active; stop it before inviting again`);
      }
      const session_number = await nextSession(ctx, incidentId, platform, c.owner);
      const attributes = origin.kind === 'import' ? imported(origin.attributes) : origin.kind === 'desktop' ? { status: 'recording', started_at: ctx.now, title: origin.title, created_by: 'desktop_sdk' } : { status: 'pending', created_by: 'recall_bot' };
      const result = await writer.create(ctx, { incident_id: incidentId, platform, session_number, ...attributes });
      const recall = origin.kind === 'import' ? origin.attributes.recall_recording_id : null;
      await setInternal(ctx, result.snapshot.id, 'owner = $3, recall_recording_id = $4', [c.owner, recall]);
      return keep(result);
    });
  }
}

/** An imported recording: captured elsewhere and over, its media stored as given (Taproot fetches nothing). */
function imported(a: Row): Row {
  const started = a.started_at == null ? null : new Date(String(a.started_at));
  const ended = a.ended_at == null ? null : new Date(String(a.ended_at));
  if (started && ended && ended < started) throw refuse('ended_at', 'ended_at must not be before started_at');
  return {
    status: 'completed',
    created_by: 'desktop_sdk',
    title: a.title ?? null,
    meeting_url: a.meeting_url ?? null,
    started_at: started,
    ended_at: ended,
    duration_minutes: started && ended ? durationMinutes(started, ended, 0) : null,
    transcript_summary: a.transcript_summary ?? null,
    word_count: a.word_count ?? 0,
    speaker_count: a.speaker_count ?? 0,
    has_video: a.video_url != null,
    video_url: a.video_url ?? null,
  };
}

@CommandHandler(MoveMeetingRecordingCommand)
export class MoveMeetingRecordingHandler extends ResourceWriteHandler {
  execute(c: MoveMeetingRecordingCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => {
      const row = await load(writer, ctx, c.id);
      const status = row.status as RecordingStatus;
      const move = RECORDING_MOVES[c.move];
      if (!move.from.includes(status)) throw refuse('status', `status: a ${status} recording cannot ${c.move} (allowed from ${move.from.join(', ')})`);
      let paused = Number(row.paused_seconds ?? 0);
      if (status === 'paused') paused += seconds(row.paused_at, ctx.now);
      const changes: Row = { status: move.to };
      if (move.to === 'recording' && row.started_at == null) changes.started_at = ctx.now;
      if (move.to === 'completed') Object.assign(changes, { ended_at: ctx.now, duration_minutes: durationMinutes(row.started_at, ctx.now, paused) });
      await setInternal(ctx, String(row.id), 'paused_seconds = $3, paused_at = $4', [Math.round(paused), move.to === 'paused' ? ctx.now : null]);
      return keep(await writer.update(ctx, String(row.id), changes));
    });
  }
}

@CommandHandler(DeleteMeetingRecordingCommand)
export class DeleteMeetingRecordingHandler extends ResourceWriteHandler {
  execute(c: DeleteMeetingRecordingCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => {
      const row = await load(writer, ctx, c.id);
      // Only the owner's standalone sessions: an incident's, or another's, is not one.
      if (c.part === 'session' && (row.incident_id != null || row.owner !== c.owner)) throw JsonApiError.notFound('meeting_recordings', c.id);
      const status = row.status as RecordingStatus;
      if (ACTIVE_STATUSES.includes(status)) throw refuse('status', `status: a ${status} recording is still active; stop it first`);
      if (c.part !== 'video') return keep(await writer.delete(ctx, String(row.id)));
      if (!row.has_video) throw refuse('has_video', 'has_video: the recording has no video to delete');
      return keep(await writer.update(ctx, String(row.id), { has_video: false, video_url: null }));
    });
  }
}

/** The desktop client's stream token: issued as the reference does, though Taproot takes no audio stream. */
export const streamToken = (): string => randomBytes(24).toString('base64url');

export const MEETING_RECORDING_HANDLERS = [CreateMeetingRecordingHandler, MoveMeetingRecordingHandler, DeleteMeetingRecordingHandler];
