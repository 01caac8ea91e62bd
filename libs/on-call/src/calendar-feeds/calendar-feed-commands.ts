import { Inject } from '@nestjs/common';
import { CommandHandler } from '@nestjs/cqrs';
import { actorOf, hashToken, type Caller } from '@taproot/auth';
import { CLOCK, TAPROOT_CONFIG, type Clock, type TaprootConfig } from '@taproot/config';
import { isUuid, JsonApiError, type ResourceObject } from '@taproot/json-api';
import { domainEvent, topicOf, UnitOfWork } from '@taproot/messaging';
import { randomBytes, randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { OnCallErrorCode } from '../errors';
import { calendarFeedSchema } from './calendar-feed.schema';

export const CALENDAR_FEED_EVENTS = {
  created: 'calendar_feed.created',
  rotated: 'calendar_feed.rotated',
  deleted: 'calendar_feed.deleted',
} as const;

/** Where a feed is served: `GET /calendar/{token}.ics`, outside /v1 (the token is the credential). */
export const CALENDAR_PATH = 'calendar';

type Row = Record<string, unknown>;

/** A feed as answers and events show it: never its token or hash. */
export interface CalendarFeedSnapshot extends Record<string, unknown> {
  id: string;
  kind: 'schedule' | 'user';
  schedule_id: string | null;
  user_id: number | null;
  created_at: string;
  rotated_at: string | null;
  /** The last change: the last rotation, else the creation. */
  updated_at: string;
}

export interface CalendarFeedResult {
  snapshot: CalendarFeedSnapshot;
  /** From create and rotate only: the URL holding the new token, shown once. */
  url?: string;
  /** Whether create made a new feed (201) or rotated the existing one (200). */
  created?: boolean;
}

export const snapshotOf = (row: Row): CalendarFeedSnapshot => ({
  id: String(row.id),
  kind: row.kind as CalendarFeedSnapshot['kind'],
  schedule_id: (row.schedule_id as string | null) ?? null,
  user_id: (row.user_id as number | null) ?? null,
  created_at: (row.created_at as Date).toISOString(),
  rotated_at: (row.rotated_at as Date | null)?.toISOString() ?? null,
  updated_at: ((row.rotated_at as Date | null) ?? (row.created_at as Date)).toISOString(),
});

export function calendarFeedObject({ snapshot, url }: CalendarFeedResult): ResourceObject {
  const { id, ...attributes } = snapshot;
  return { id, type: calendarFeedSchema.type, attributes: url === undefined ? attributes : { ...attributes, url } };
}

/** What a feed is of: a schedule of the caller's organization, or the caller's own user. */
export type FeedTarget = { kind: 'schedule'; scheduleId: string } | { kind: 'user' };

export class CreateCalendarFeedCommand {
  constructor(
    readonly caller: Caller,
    readonly target: FeedTarget,
  ) {}
}

export class RotateCalendarFeedCommand {
  constructor(
    readonly caller: Caller,
    readonly id: string,
  ) {}
}

export class DeleteCalendarFeedCommand {
  constructor(
    readonly caller: Caller,
    readonly id: string,
  ) {}
}

/**
 * Which feeds a caller may see and change: every schedule feed of the organization, and the user
 * feed of its own user only (a user's feed shows where they are on call, across schedules).
 * `$1` is the organization, `$2` the caller's user id or null.
 */
export const VISIBLE_FEEDS = `organization_id = $1 AND (kind = 'schedule' OR user_id = $2)`;

/** 256 random bits; the prefix marks it as a secret wherever it appears (logs redact it). */
const newToken = () => `tcal_${randomBytes(32).toString('base64url')}`;

/**
 * One change of a feed in one unit of work: the row and its event in the on-call context's outbox.
 * The event carries the snapshot only, so the token cannot reach the outbox, the bus or the audit log.
 */
abstract class CalendarFeedHandler<C extends { caller: Caller }> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
  ) {}

  execute(command: C): Promise<CalendarFeedResult> {
    const { caller } = command;
    const now = this.clock.now();
    return this.unitOfWork.run(async (manager, emitter) => {
      const token = newToken();
      const { row, type } = await this.change(manager, command, hashToken(token), now);
      const snapshot = snapshotOf(row);
      emitter.emit(topicOf('on-call'), [
        domainEvent({ type, organizationId: caller.organizationId, aggregateType: calendarFeedSchema.type, aggregateId: snapshot.id, actor: actorOf(caller), payload: snapshot, occurredAt: now }),
      ]);
      const shown = type === CALENDAR_FEED_EVENTS.deleted ? {} : { url: `${this.config.publicUrl}/${CALENDAR_PATH}/${token}.ics` };
      return { snapshot, ...shown, created: type === CALENDAR_FEED_EVENTS.created };
    });
  }

  /** The change, given the new token's hash (unused by a delete). */
  protected abstract change(manager: EntityManager, command: C, tokenHash: string, now: Date): Promise<{ row: Row; type: string }>;
}

/** A feed of the caller's organization it may see, or 404 (another organization's answers the same). */
async function changeVisible(manager: EntityManager, caller: Caller, id: string, sql: string, values: unknown[]): Promise<Row> {
  if (!isUuid(id)) throw JsonApiError.notFound(calendarFeedSchema.type, id);
  const [rows] = (await manager.query(`${sql} WHERE ${VISIBLE_FEEDS} AND id = $3 RETURNING *`, [caller.organizationId, caller.userId, id, ...values])) as [Row[]];
  if (rows.length === 0) throw JsonApiError.notFound(calendarFeedSchema.type, id);
  return rows[0];
}

@CommandHandler(CreateCalendarFeedCommand)
export class CreateCalendarFeedHandler extends CalendarFeedHandler<CreateCalendarFeedCommand> {
  /** One feed per schedule and per user: creating it again replaces its token (a rotation). */
  protected async change(manager: EntityManager, { caller, target }: CreateCalendarFeedCommand, tokenHash: string, now: Date) {
    let column: 'schedule_id' | 'user_id';
    let owner: string | number;
    if (target.kind === 'schedule') {
      const [schedule] = isUuid(target.scheduleId)
        ? await manager.query('SELECT id FROM schedules WHERE organization_id = $1 AND id = $2', [caller.organizationId, target.scheduleId])
        : [];
      if (!schedule) throw JsonApiError.notFound('schedules', target.scheduleId);
      [column, owner] = ['schedule_id', target.scheduleId];
    } else {
      if (caller.userId === null) {
        throw JsonApiError.invalidAttributes([
          { attribute: 'kind', detail: "kind user is the calling user's feed: this API key acts for no user", code: OnCallErrorCode.UnknownUser },
        ]);
      }
      [column, owner] = ['user_id', caller.userId];
    }
    // Atomic create-or-rotate: two concurrent requests end with one feed (the later token wins).
    const [row] = (await manager.query(
      `INSERT INTO calendar_feeds (organization_id, id, kind, ${column}, token_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (organization_id, ${column}) WHERE ${column} IS NOT NULL DO UPDATE SET token_hash = EXCLUDED.token_hash, rotated_at = EXCLUDED.created_at
       RETURNING *, (xmax = 0) AS inserted`,
      [caller.organizationId, randomUUID(), target.kind, owner, tokenHash, now],
    )) as Row[];
    return { row, type: row.inserted ? CALENDAR_FEED_EVENTS.created : CALENDAR_FEED_EVENTS.rotated };
  }
}

@CommandHandler(RotateCalendarFeedCommand)
export class RotateCalendarFeedHandler extends CalendarFeedHandler<RotateCalendarFeedCommand> {
  /** The previous URL stops working at once: a leaked URL is revoked by rotating. */
  protected async change(manager: EntityManager, { caller, id }: RotateCalendarFeedCommand, tokenHash: string, now: Date) {
    const row = await changeVisible(manager, caller, id, 'UPDATE calendar_feeds SET token_hash = $4, rotated_at = $5', [tokenHash, now]);
    return { row, type: CALENDAR_FEED_EVENTS.rotated };
  }
}

@CommandHandler(DeleteCalendarFeedCommand)
export class DeleteCalendarFeedHandler extends CalendarFeedHandler<DeleteCalendarFeedCommand> {
  protected async change(manager: EntityManager, { caller, id }: DeleteCalendarFeedCommand) {
    const row = await changeVisible(manager, caller, id, 'DELETE FROM calendar_feeds', []);
    return { row, type: CALENDAR_FEED_EVENTS.deleted };
  }
}

export const CALENDAR_FEED_HANDLERS = [CreateCalendarFeedHandler, RotateCalendarFeedHandler, DeleteCalendarFeedHandler];
