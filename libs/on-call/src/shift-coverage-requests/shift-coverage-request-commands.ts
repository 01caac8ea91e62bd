import { CommandHandler } from '@nestjs/cqrs';
import { actorOf, can, forbidden, type Caller } from '@taproot/auth';
import { userRecords } from '@taproot/identity';
import { JsonApiError, readRecords } from '@taproot/json-api';
import type { EventActor } from '@taproot/messaging';
import { checkReferenced, ResourceWriteHandler, type ResourceWriteCommand, type Row, type Snapshot } from '@taproot/resources';
import { OnCallErrorCode } from '../errors';
import type { Shift } from '../schedules/engine';
import { scheduleSchema } from '../schedules/schedule.schema';
import { USERS } from '../shared/references';
import { orderIssues, refuse } from '../shared/times';
import { shiftsOfSchedules } from '../shifts/shift-reader';
import { MAX_SPAN_MS, shiftId } from '../shifts/shift-reader';
import { shiftCoverageRequestDefinition } from './shift-coverage-request.schema';

/** What both commands name: the resource, and the caller whose permissions decide. */
abstract class CoverageCommand implements ResourceWriteCommand {
  readonly definition = shiftCoverageRequestDefinition;
  readonly organizationId: string;
  readonly actor: EventActor;
  readonly userId: string | null;

  constructor(readonly caller: Caller) {
    this.organizationId = caller.organizationId;
    this.actor = actorOf(caller);
    this.userId = caller.userId === null ? null : String(caller.userId);
  }
}

export class CreateShiftCoverageRequestsCommand extends CoverageCommand {
  constructor(
    caller: Caller,
    /** The schedule as the path (or the flat route's body) names it. */
    readonly schedule: string,
    /** The validated `new_shift_coverage_request` attributes: starts_at, ends_at, optional user_id and schedule_id. */
    readonly range: Row,
  ) {
    super(caller);
  }
}

export class DeleteShiftCoverageRequestCommand extends CoverageCommand {
  constructor(
    caller: Caller,
    readonly id: string,
  ) {
    super(caller);
  }
}

const invalid = (attribute: string, detail: string, code: OnCallErrorCode) => JsonApiError.invalidAttributes([{ attribute, detail, code }]);

/** The reference's `shift` attributes of a computed shift. */
const shiftAttributes = (s: Shift): Row => ({
  schedule_id: s.schedule_id,
  rotation_id: s.rotation_id,
  starts_at: s.starts_at,
  ends_at: s.ends_at,
  is_override: s.is_override,
  is_shadow: s.is_shadow,
  user_id: s.user_id,
});

/** The range's checks before any shift is computed: order, a future end, at most a shift window's span. */
function checkRange(range: Row, now: Date): { from: Date; to: Date } {
  refuse(orderIssues(range, null, 'starts_at', 'ends_at'));
  const [from, to] = [new Date(range.starts_at as string), new Date(range.ends_at as string)];
  if (to <= now) throw invalid('ends_at', 'ends_at must be in the future: coverage is requested for shifts still to come', OnCallErrorCode.InvalidTimeRange);
  if (to.getTime() - from.getTime() > MAX_SPAN_MS) throw invalid('ends_at', 'starts_at and ends_at may be at most 366 days apart', OnCallErrorCode.InvalidTimeRange);
  return { from, to };
}

/**
 * `POST .../shift_coverage_requests` (reference: createShiftCoverageRequest): one request per
 * primary shift of the schedule overlapping the range (of `user_id` when given), covering the
 * part of the shift inside the range, in one transaction with their `shift_coverage_request.created`
 * events. Anyone who reads the schedule may ask for their own shifts; another user's shift needs
 * the schedule_override create permission (reference: 422 without it).
 */
@CommandHandler(CreateShiftCoverageRequestsCommand)
export class CreateShiftCoverageRequestsHandler extends ResourceWriteHandler {
  execute(c: CreateShiftCoverageRequestsCommand): Promise<Snapshot[]> {
    return this.write(c, async (writer, ctx, keep) => {
      // The schedule as it answers (kept with each request); another organization's is missing (404).
      const schedule = (await readRecords(ctx.manager, scheduleSchema, ctx.organizationId, [c.schedule])).get(c.schedule.toLowerCase());
      if (!schedule) throw JsonApiError.notFound('schedules', c.schedule);
      const scheduleId = schedule.id;
      if (c.caller.userId === null) {
        throw JsonApiError.of(422, 'Invalid attribute', 'a coverage request is made by a user (created_by_user_id): this API key acts for no user', OnCallErrorCode.RequesterRequired);
      }
      const window = checkRange(c.range, ctx.now);
      const wanted = c.range.user_id == null ? null : Number((await checkReferenced(ctx, { user_id: c.range.user_id }, { user_id: USERS })).user_id);
      // Shadow shifts mirror someone else's: only the shifts of the people on call are covered.
      const shifts = (await shiftsOfSchedules(ctx.manager, ctx.organizationId, [scheduleId], window)).filter(
        (s) => !s.is_shadow && s.user_id != null && (wanted === null || s.user_id === wanted),
      );
      if (shifts.length === 0) {
        const whose = wanted === null ? 'nobody is' : `user ${wanted} is not`;
        throw invalid(wanted === null ? 'starts_at' : 'user_id', `${whose} on call in this schedule between starts_at and ends_at: no shift to cover`, OnCallErrorCode.NoShiftsInRange);
      }
      const other = shifts.find((s) => s.user_id !== c.caller.userId);
      if (other && !can(c.caller.permissions, 'schedule_override', 'create')) {
        const detail = `the range holds a shift of user ${other.user_id}: coverage for another user's shift needs the schedule_override create permission`;
        throw invalid('user_id', detail, OnCallErrorCode.OverridePermissionRequired);
      }
      const users = await userRecords(ctx.manager, ctx.organizationId, [...new Set([c.caller.userId, ...shifts.map((s) => s.user_id)].map(String))]);
      // One query for every user of the answer (references.ts' userDocument reads one at a time).
      const asDocument = (id: number) => {
        const user = users.get(String(id));
        return user ? { data: user } : null;
      };
      const snapshots: Snapshot[] = [];
      for (const shift of shifts) {
        const attributes: Row = {
          schedule_id: c.range.schedule_id ?? scheduleId,
          shift_id: shiftId(shift),
          original_shift_user_id: shift.user_id,
          created_by_user_id: c.caller.userId,
          starts_at: new Date(Math.max(Date.parse(shift.starts_at), window.from.getTime())).toISOString(),
          ends_at: new Date(Math.min(Date.parse(shift.ends_at), window.to.getTime())).toISOString(),
          shift: shiftAttributes(shift),
          schedule: { data: schedule },
          original_shift_user: asDocument(shift.user_id),
          created_by_user: asDocument(c.caller.userId),
        };
        snapshots.push(keep(await writer.create(ctx, attributes, scheduleId)));
      }
      return snapshots;
    });
  }
}

/**
 * `DELETE /v1/shift_coverage_requests/{id}`: withdraws a request. The user who made it, or whose
 * shift it covers, may; anyone else needs schedule_override update (as withdrawing an override).
 */
@CommandHandler(DeleteShiftCoverageRequestCommand)
export class DeleteShiftCoverageRequestHandler extends ResourceWriteHandler {
  execute(c: DeleteShiftCoverageRequestCommand): Promise<Snapshot> {
    return this.write(c, async (writer, ctx, keep) => {
      const current = await writer.load(ctx.manager, ctx.organizationId, c.id, true);
      const own = c.caller.userId !== null && [current.created_by_user_id, current.original_shift_user_id].map(Number).includes(c.caller.userId);
      if (!own && !can(c.caller.permissions, 'schedule_override', 'update')) throw forbidden({ family: 'schedule_override', action: 'update' }, c.caller, c.caller.permissions);
      return keep(await writer.delete(ctx, String(current.id)));
    });
  }
}

export const SHIFT_COVERAGE_REQUEST_HANDLERS = [CreateShiftCoverageRequestsHandler, DeleteShiftCoverageRequestHandler];
