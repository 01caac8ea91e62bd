import { Body, Controller, Delete, Get, Header, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CurrentCaller, Public, RequirePermission, type Caller } from '@taproot/auth';
import { CLOCK, TAPROOT_CONFIG, type Clock, type TaprootConfig } from '@taproot/config';
import { buildLinksAndMeta, isUuid, JsonApiError, parseListQuery, parseResourcePayload, type FlatQuery, type ResourceObject } from '@taproot/json-api';
import { SecretAnswer } from '@taproot/resources';
import { DataSource } from 'typeorm';
import {
  CALENDAR_PATH,
  calendarFeedObject,
  CreateCalendarFeedCommand,
  DeleteCalendarFeedCommand,
  RotateCalendarFeedCommand,
  snapshotOf,
  VISIBLE_FEEDS,
  type CalendarFeedResult,
  type FeedTarget,
} from './calendar-feed-commands';
import { readFeed } from './calendar-feed-reader';
import { calendarFeedSchema } from './calendar-feed.schema';
import { calendarText } from './calendar-ics';

interface StatusReply {
  status(code: number): unknown;
}

/** The create body's target: a schedule feed names its schedule; a user feed is the caller's own. */
function targetOf(body: unknown): FeedTarget {
  const { attributes } = parseResourcePayload(calendarFeedSchema, body, 'create');
  if (attributes.kind === 'user') return { kind: 'user' };
  if (typeof attributes.schedule_id !== 'string') throw JsonApiError.invalidAttributes([{ attribute: 'schedule_id', detail: 'schedule_id is required with kind schedule' }]);
  return { kind: 'schedule', scheduleId: attributes.schedule_id };
}

/**
 * Calendar feeds (Taproot only; docs/schedules.md, Calendar feeds): `/v1/calendar_feeds` manages
 * them with the schedules read permission, and `GET /calendar/{token}.ics` serves one without a
 * bearer token (the token in the URL is the credential), limited per client address like every
 * public route.
 */
@Controller()
export class CalendarFeedsController {
  private readonly host: string;
  private readonly cursorSecret: string;

  constructor(
    private readonly commands: CommandBus,
    private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(TAPROOT_CONFIG) config: TaprootConfig,
  ) {
    this.host = new URL(config.publicUrl).hostname;
    this.cursorSecret = config.cursorSecret;
  }

  @Get('v1/calendar_feeds')
  @RequirePermission('schedules', 'read')
  async list(@CurrentCaller() caller: Caller, @Query() query: FlatQuery) {
    const q = parseListQuery(calendarFeedSchema, query, { cursorSecret: this.cursorSecret });
    const rows = (await this.dataSource.query(`SELECT * FROM calendar_feeds WHERE ${VISIBLE_FEEDS} ORDER BY created_at, id`, [caller.organizationId, caller.userId])) as Record<string, unknown>[];
    // A schedule's and a user's feeds are few: paged in memory, in offset pages.
    const number = q.page.mode === 'offset' ? q.page.number : 1;
    const page = rows.slice((number - 1) * q.page.size, number * q.page.size);
    const hasNext = number * q.page.size < rows.length;
    const { links, meta } = buildLinksAndMeta({ basePath: '/v1/calendar_feeds', query, q, totalCount: rows.length, hasNext, nextCursor: null, prevCursor: null });
    return { data: page.map((row) => this.object(row)), links, meta };
  }

  @Get('v1/calendar_feeds/:id')
  @RequirePermission('schedules', 'read')
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const [row] = isUuid(id)
      ? ((await this.dataSource.query(`SELECT * FROM calendar_feeds WHERE ${VISIBLE_FEEDS} AND id = $3`, [caller.organizationId, caller.userId, id])) as Record<string, unknown>[])
      : [];
    if (!row) throw JsonApiError.notFound(calendarFeedSchema.type, id);
    return { data: this.object(row) };
  }

  /** 201 with the new feed's URL, or 200 when the schedule (or user) had one: its URL is replaced. */
  @Post('v1/calendar_feeds')
  @RequirePermission('schedules', 'read')
  @SecretAnswer()
  async create(@CurrentCaller() caller: Caller, @Body() body: unknown, @Res({ passthrough: true }) reply: StatusReply) {
    const result: CalendarFeedResult = await this.commands.execute(new CreateCalendarFeedCommand(caller, targetOf(body)));
    reply.status(result.created ? 201 : 200);
    return { data: calendarFeedObject(result) };
  }

  @Post('v1/calendar_feeds/:id/rotate')
  @RequirePermission('schedules', 'read')
  @SecretAnswer()
  async rotate(@CurrentCaller() caller: Caller, @Param('id') id: string, @Res({ passthrough: true }) reply: StatusReply) {
    const result: CalendarFeedResult = await this.commands.execute(new RotateCalendarFeedCommand(caller, id));
    reply.status(200);
    return { data: calendarFeedObject(result) };
  }

  /** Revokes the feed: its URL answers 404 from now on. */
  @Delete('v1/calendar_feeds/:id')
  @RequirePermission('schedules', 'read')
  async remove(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const result: CalendarFeedResult = await this.commands.execute(new DeleteCalendarFeedCommand(caller, id));
    return { data: calendarFeedObject(result) };
  }

  /** The iCalendar feed; an unknown, rotated or revoked token is a 404 like a missing page. */
  @Public()
  @Get(`${CALENDAR_PATH}/:file`)
  @Header('content-type', 'text/calendar; charset=utf-8')
  @Header('cache-control', 'private, max-age=300')
  async feed(@Param('file') file: string): Promise<string> {
    const token = /^(tcal_[A-Za-z0-9_-]{43})\.ics$/.exec(file)?.[1];
    const now = this.clock.now();
    const feed = token ? await readFeed(this.dataSource, token, now, this.host) : null;
    if (!feed) throw JsonApiError.of(404, 'Not found', 'No calendar feed at this address: it was rotated, revoked, or never existed', 'NOT_FOUND');
    return calendarText(feed, now);
  }

  private object(row: Record<string, unknown>): ResourceObject {
    return calendarFeedObject({ snapshot: snapshotOf(row) });
  }
}
