import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { isUuid, JsonApiError, listDocument, parseInclude, parseListQuery, parseResourcePayload, toResourceObject, type ListFilter, type ResourceSchema } from '@taproot/json-api';
import { snapshotObject, type FlatQuery, type Snapshot } from '@taproot/resources';
import { DataSource } from 'typeorm';
import { incidentParentAccess } from '../incident-children/incident-parent';
import { incidentAccess, seesPrivate } from '../incidents/incident-access';
import {
  CreateMeetingRecordingCommand,
  DeleteMeetingRecordingCommand,
  MoveMeetingRecordingCommand,
  ownerOf,
  streamToken,
  type RecordingMove,
  type RecordingOrigin,
} from './meeting-recording-commands';
import { MEETING_PLATFORMS, meetingRecordingImportSchema, meetingRecordingSchema, meetingRecordingVisibleSchema, startSessionSchema } from './meeting-recording.schema';

const schema = meetingRecordingSchema;
/** What a single read's `include` takes: the reference's one value, `transcript`, which includes nothing (Taproot keeps no transcript segments). */
const ONE_RECORDING_INCLUDES: ResourceSchema = { ...schema, relationships: { transcript: { type: 'meeting_recording_transcripts', many: true, absent: true } } };
const TYPE = schema.type;
/** The reference's list takes `status`, `platform` and `created_by` as plain query parameters. */
const PLAIN_FILTERS = ['status', 'platform', 'created_by'] as const;

/** The reference's import and start_session bodies are flat objects; a JSON:API document is taken too. */
function attributesOf(target: ResourceSchema, body: unknown) {
  const wrapped = body !== null && typeof body === 'object' && 'data' in body ? body : { data: { type: TYPE, attributes: body } };
  return parseResourcePayload(target, wrapped, 'create').attributes;
}

/**
 * Meeting recordings (docs/meeting-recordings.md): the incident's sessions, the organization's
 * list (the caller's standalone sessions and the recordings of incidents they may see), and the
 * session's moves and deletes. A record the caller may not see answers 404 on every route.
 */
@Controller()
export class MeetingRecordingsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly dataSource: DataSource,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
  ) {}

  /** What the caller may see: incident recordings (not a private incident's unless they may), and their own sessions. */
  private scope(caller: Caller): ListFilter[] {
    const filters: ListFilter[] = [{ attribute: 'audience', operator: 'in', values: ['incident', ownerOf(caller)], parameter: 'audience' }];
    if (!seesPrivate(incidentAccess(caller))) filters.push({ attribute: 'incident_private', operator: 'eq', values: [false], parameter: 'private' });
    return filters;
  }

  private list(caller: Caller, query: FlatQuery, incidentId?: string, basePath?: string) {
    const scope = this.scope(caller);
    if (incidentId) scope.push({ attribute: 'incident_id', operator: 'eq', values: [incidentId], parameter: 'incident_id' });
    const q = parseListQuery(meetingRecordingVisibleSchema, query, { cursorSecret: this.config.cursorSecret, scope });
    const { organizationId } = caller;
    return listDocument({ db: this.dataSource, schema: meetingRecordingVisibleSchema, serializeAs: schema, q, query, organizationId, cursorSecret: this.config.cursorSecret, basePath });
  }

  /** The recording as the caller may see it; a 404 otherwise. */
  private async visible(caller: Caller, id: string) {
    const rows = isUuid(id) ? ((await this.dataSource.query('SELECT * FROM meeting_recordings_visible WHERE id = $1 AND organization_id = $2', [id, caller.organizationId])) as Record<string, unknown>[]) : [];
    const [row] = rows;
    const seen = row && (row.audience === 'incident' || row.audience === ownerOf(caller)) && (!row.incident_private || seesPrivate(incidentAccess(caller)));
    if (!seen) throw JsonApiError.notFound(TYPE, id);
    return row;
  }

  private async run(command: CreateMeetingRecordingCommand | MoveMeetingRecordingCommand | DeleteMeetingRecordingCommand) {
    const snapshot: Snapshot = await this.commands.execute(command);
    return { data: snapshotObject(schema, snapshot) };
  }

  @Get('v1/incidents/:incident_id/meeting_recordings')
  @RequirePermission('incidents', 'read')
  async listOfIncident(@CurrentCaller() caller: Caller, @Param('incident_id') raw: string, @Query() query: FlatQuery) {
    const incidentId = await incidentParentAccess.find(this.dataSource, caller, raw);
    // Sorted by session number, as the reference lists them.
    return this.list(caller, { sort: 'session_number', ...query }, incidentId, `/v1/incidents/${encodeURIComponent(raw)}/meeting_recordings`);
  }

  @Get('v1/meeting_recordings')
  @RequirePermission('incidents', 'read')
  listAll(@CurrentCaller() caller: Caller, @Query() query: FlatQuery) {
    const plain = Object.fromEntries(PLAIN_FILTERS.filter((name) => query[name] !== undefined).map((name) => [`filter[${name}]`, query[name]]));
    const rest = Object.fromEntries(Object.entries(query).filter(([name]) => !(PLAIN_FILTERS as readonly string[]).includes(name)));
    return this.list(caller, { ...rest, ...plain });
  }

  @Get('v1/meeting_recordings/:id')
  @RequirePermission('incidents', 'read')
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query('include') include: string | string[] | undefined) {
    parseInclude(ONE_RECORDING_INCLUDES, include);
    return { data: toResourceObject(schema, await this.visible(caller, id)) };
  }

  @Post('v1/incidents/:incident_id/meeting_recordings')
  @RequirePermission('incidents', 'update')
  @HttpCode(201)
  async invite(@CurrentCaller() caller: Caller, @Param('incident_id') raw: string, @Query('platform') platform: unknown, @Body() body: unknown) {
    const incidentId = await incidentParentAccess.find(this.dataSource, caller, raw);
    const sent = platform ?? (body as { data?: { attributes?: { platform?: unknown } } } | undefined)?.data?.attributes?.platform;
    if (typeof sent !== 'string' || !(MEETING_PLATFORMS as readonly string[]).includes(sent)) {
      throw JsonApiError.of(422, 'Invalid attribute', `platform must be one of ${MEETING_PLATFORMS.join(', ')}`, 'INVALID_ATTRIBUTE', { parameter: 'platform' });
    }
    return this.run(new CreateMeetingRecordingCommand(caller, { kind: 'invite', incidentId, platform: sent }));
  }

  @Post('v1/incidents/:incident_id/meeting_recordings/import')
  @RequirePermission('incidents', 'update')
  @HttpCode(201)
  async import(@CurrentCaller() caller: Caller, @Param('incident_id') raw: string, @Body() body: unknown) {
    // The incident first: another organization's is a 404 whatever the body says.
    const incidentId = await incidentParentAccess.find(this.dataSource, caller, raw);
    const attributes = attributesOf(meetingRecordingImportSchema, body);
    return this.run(new CreateMeetingRecordingCommand(caller, { kind: 'import', incidentId, attributes }));
  }

  @Post('v1/meeting_recordings/start_session')
  @RequirePermission('incidents', 'update')
  @HttpCode(201)
  async startSession(@CurrentCaller() caller: Caller, @Body() body: unknown) {
    const attributes = attributesOf(startSessionSchema, body ?? {});
    const origin: RecordingOrigin = { kind: 'desktop', platform: String(attributes.platform), title: (attributes.title as string | null | undefined) ?? null };
    const snapshot: Snapshot = await this.commands.execute(new CreateMeetingRecordingCommand(caller, origin));
    return { data: { session_id: snapshot.id, meeting_recording_id: snapshot.id, stream_token: streamToken() } };
  }

  private async moveTo(caller: Caller, id: string, move: RecordingMove) {
    await this.visible(caller, id);
    return this.run(new MoveMeetingRecordingCommand(caller, id, move));
  }

  @Post('v1/meeting_recordings/:id/pause')
  @RequirePermission('incidents', 'update')
  @HttpCode(200)
  pause(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.moveTo(caller, id, 'pause');
  }

  @Post('v1/meeting_recordings/:id/resume')
  @RequirePermission('incidents', 'update')
  @HttpCode(200)
  resume(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.moveTo(caller, id, 'resume');
  }

  @Post('v1/meeting_recordings/:id/stop')
  @RequirePermission('incidents', 'update')
  @HttpCode(200)
  stop(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.moveTo(caller, id, 'stop');
  }

  @Post('v1/meeting_recordings/:id/leave')
  @RequirePermission('incidents', 'update')
  @HttpCode(200)
  leave(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    return this.moveTo(caller, id, 'leave');
  }

  @Delete('v1/meeting_recordings/:id')
  @RequirePermission('incidents', 'update')
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    await this.visible(caller, id);
    return this.run(new DeleteMeetingRecordingCommand(caller, id, 'recording'));
  }

  @Delete('v1/meeting_recordings/:id/delete_session')
  @RequirePermission('incidents', 'update')
  @HttpCode(204)
  async deleteSession(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<void> {
    await this.visible(caller, id);
    await this.run(new DeleteMeetingRecordingCommand(caller, id, 'session'));
  }

  @Delete('v1/meeting_recordings/:id/delete_video')
  @RequirePermission('incidents', 'update')
  async deleteVideo(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    await this.visible(caller, id);
    return this.run(new DeleteMeetingRecordingCommand(caller, id, 'video'));
  }
}
