import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { onCallRolesOfUsers, userRecords } from '@taproot/identity';
import {
  buildLinksAndMeta,
  byIdAttribute,
  JsonApiError,
  parseListQuery,
  readRecords,
  recordsOf,
  withIncludes,
  type FlatQuery,
  type IncludeSource,
  type ListFilter,
  type Queryable,
  type RecordsById,
  type ResourceObject,
} from '@taproot/json-api';
import { DataSource } from 'typeorm';
import { onCallShadowSchema } from '../on-call-shadows/on-call-shadow.schema';
import type { Shift } from '../schedules/engine';
import { scheduleRotationSchema } from '../schedule-rotations/schedule-rotation.schema';
import { scheduleSchema } from '../schedules/schedule.schema';
import { instantParameter, listParameter } from '../shared/query-parameters';
import { MAX_SPAN_MS, ShiftReader, shiftId, type Window } from './shift-reader';
import { shiftSchema } from './shift.schema';

const DAY_MS = 24 * 3_600_000;
/** Without `to`, a week from `from` (without `from`: now). */
const DEFAULT_SPAN_MS = 7 * DAY_MS;

/**
 * `from` and `to` (spec: the reference's query parameters), checked: `to` after `from`, at most a
 * year and a day apart. Without them, the bounds of `filter[starts_at]` (the window must reach
 * every shift starting within them), else now and a week after.
 */
export function windowOf(query: FlatQuery, now: Date, filters: readonly ListFilter[] = []): Window {
  // The tightest bound of each side, with the parameter that set it (named when the window is refused).
  const bound = (operators: readonly string[], pick: (a: number, b: number) => number) =>
    filters
      .filter((f) => f.attribute === 'starts_at' && operators.includes(f.operator))
      .map((f) => ({ at: Date.parse(String(f.values[0])), parameter: f.parameter }))
      .reduce<{ at: number; parameter: string } | null>((best, b) => (best === null || pick(b.at, best.at) === b.at ? b : best), null);
  const earliest = query.from === undefined ? bound(['gt', 'gte'], Math.max) : null;
  const latest = query.to === undefined ? bound(['lt', 'lte'], Math.min) : null;
  const from = instantParameter('from', query.from) ?? (earliest ? new Date(earliest.at) : now);
  // A shift starting at the bound itself overlaps a window ending just after it.
  const to = instantParameter('to', query.to) ?? (latest ? new Date(latest.at + 1) : new Date(from.getTime() + DEFAULT_SPAN_MS));
  const toName = latest?.parameter ?? 'to';
  if (to <= from) throw JsonApiError.badParameter(toName, `${toName} must be after ${earliest?.parameter ?? 'from'}`);
  if (to.getTime() - from.getTime() > MAX_SPAN_MS) throw JsonApiError.badParameter(toName, `${earliest?.parameter ?? 'from'} and ${toName} may be at most 366 days apart`);
  return { from, to };
}


const toObject = (shift: Shift): ResourceObject => ({
  id: shiftId(shift),
  type: 'shifts',
  attributes: {
    schedule_id: shift.schedule_id,
    rotation_id: shift.rotation_id,
    starts_at: shift.starts_at,
    ends_at: shift.ends_at,
    is_override: shift.is_override,
    is_shadow: shift.is_shadow,
    user_id: shift.user_id,
  },
});

/**
 * `GET /v1/shifts` and `GET /v1/schedules/{id}/shifts`: the shifts the schedule engine computes
 * for a window (docs/schedules.md), paged, with the reference's includes: `user` and `assignee`
 * (the user on call), `shift_override` (the override's metadata) and `shift_shadow` (the shadow),
 * and those the hosted API's MCP server asks for: `on_call_role` (the user's), `schedule_rotation`
 * and `schedule`.
 */
@Controller()
export class ShiftsController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly reader: ShiftReader,
    @Inject(TAPROOT_CONFIG) private readonly config: TaprootConfig,
  ) {}

  @Get('v1/shifts')
  @RequirePermission('schedules', 'read')
  async list(@CurrentCaller() caller: Caller, @Query() query: FlatQuery) {
    const requested = listParameter(query, 'schedule_ids[]', 'schedule_ids');
    const scheduleIds = (await this.dataSource.query(
      `SELECT id FROM schedules_read WHERE organization_id = $1 ${requested ? 'AND id::text = ANY($2::text[])' : ''} ORDER BY created_at, id`,
      requested ? [caller.organizationId, requested.map((id) => id.toLowerCase())] : [caller.organizationId],
    )) as { id: string }[];
    const userIds = listParameter(query, 'user_ids[]', 'user_ids');
    if (userIds?.some((id) => !/^\d{1,9}$/.test(id))) throw JsonApiError.badParameter('user_ids[]', 'user_ids[] must be user ids (integers)');
    return this.answer(caller, query, '/v1/shifts', scheduleIds.map((r) => r.id), userIds?.map(Number));
  }

  @Get('v1/schedules/:id/shifts')
  @RequirePermission('schedules', 'read')
  async ofSchedule(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query() query: FlatQuery) {
    const found = await readRecords(this.dataSource, scheduleSchema, caller.organizationId, [id]);
    if (!found.size) throw JsonApiError.notFound('schedules', id);
    return this.answer(caller, query, `/v1/schedules/${id}/shifts`, [...found.keys()]);
  }

  private async answer(caller: Caller, query: FlatQuery, basePath: string, scheduleIds: string[], userIds?: number[]) {
    const q = parseListQuery(shiftSchema, query, { cursorSecret: this.config.cursorSecret });
    const window = windowOf(query, new Date(), q.filters);
    let shifts = (await this.reader.shifts(caller.organizationId, scheduleIds, window)).filter((s) => q.filters.every((f) => inRange(s, f)));
    if (userIds) shifts = shifts.filter((s) => userIds.includes(s.user_id));
    const size = q.page.size;
    const number = q.page.mode === 'offset' ? q.page.number : 1;
    const page = shifts.slice((number - 1) * size, number * size);
    const byId = new Map(page.map((s) => [shiftId(s), s]));
    const ctx = { db: this.dataSource, organizationId: caller.organizationId };
    const { data, included } = await withIncludes(ctx, shiftSchema, this.sources(byId), page.map(toObject), q.include);
    const hasNext = number * size < shifts.length;
    const { links, meta } = buildLinksAndMeta({ basePath, query, q, totalCount: shifts.length, hasNext, nextCursor: null, prevCursor: null });
    return { data, ...(included ? { included } : {}), links, meta };
  }

  /** Where each include finds its records, for one page of shifts (one query per include). */
  private sources(byId: Map<string, Shift>): Record<string, IncludeSource> {
    const users = byIdAttribute('user_id', userRecords);
    const ofShift = (pick: (s: Shift) => string | null, find: RecordsById): IncludeSource => {
      return async ({ db, organizationId }, records) => {
        const ids = [...new Set(records.map((r) => pick(byId.get(r.id)!)).filter((id): id is string => id !== null))];
        const found = ids.length ? await find(db, organizationId, ids) : new Map<string, ResourceObject>();
        return new Map(records.map((r) => [r.id, [found.get(pick(byId.get(r.id)!) ?? '')].filter((x): x is ResourceObject => x !== undefined)]));
      };
    };
    return {
      user: users,
      assignee: users,
      shift_override: ofShift((s) => s.override_id, overrideMetadata),
      shift_shadow: ofShift((s) => s.shadow_id, recordsOf(onCallShadowSchema)),
      on_call_role: byIdAttribute('user_id', onCallRolesOfUsers),
      schedule_rotation: byIdAttribute('rotation_id', recordsOf(scheduleRotationSchema)),
      schedule: byIdAttribute('schedule_id', recordsOf(scheduleSchema)),
    };
  }
}

/** Whether a shift passes a range filter on its start or end (the only filters shifts take). */
function inRange(shift: Shift, filter: ListFilter): boolean {
  const at = Date.parse(filter.attribute === 'starts_at' ? shift.starts_at : shift.ends_at);
  const bound = Date.parse(String(filter.values[0]));
  switch (filter.operator) {
    case 'gt':
      return at > bound;
    case 'gte':
      return at >= bound;
    case 'lt':
      return at < bound;
    case 'lte':
      return at <= bound;
    default:
      throw new Error(`shifts take no ${filter.operator} filter`);
  }
}

/** An override's metadata as the reference's `shift_override` (who created it, when). */
async function overrideMetadata(db: Queryable, organizationId: string, ids: readonly string[]): Promise<Map<string, ResourceObject>> {
  const rows = (await db.query('SELECT id, shift_override FROM override_shifts_read WHERE organization_id = $1 AND id = ANY($2::uuid[])', [organizationId, ids])) as {
    id: string;
    shift_override: { data?: { attributes?: Record<string, unknown> } } | null;
  }[];
  return new Map(rows.map((r) => [r.id, { id: r.id, type: 'shift_overrides', attributes: r.shift_override?.data?.attributes ?? {} }]));
}
