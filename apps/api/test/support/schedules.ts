import type { TestApi } from '../../src/testing';
import { created, unique } from './json-api';

const doc = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

/**
 * A schedule named `name` (made unique) owned by `owner`, with a weekly rotation "Weekly" handing
 * off on Mondays at 09:00 New York time (`timeZone`: America/New_York, or a name denoting it) and
 * `members` in that order.
 */
export async function weeklySchedule(
  api: TestApi,
  token: string,
  opts: { members: number[]; owner: number; name?: string; timeZone?: string },
): Promise<{ scheduleId: string; rotationId: string }> {
  const send = (path: string, body: unknown) => api.request('POST', path, { token, body });
  const scheduleId = created(await send('/v1/schedules', doc('schedules', { name: unique(opts.name ?? 'Primary'), owner_user_id: opts.owner }))).id as string;
  const rotation = created(
    await send(
      `/v1/schedules/${scheduleId}/schedule_rotations`,
      doc('schedule_rotations', {
        name: 'Weekly',
        schedule_rotationable_type: 'ScheduleWeeklyRotation',
        schedule_rotationable_attributes: { handoff_time: '09:00', handoff_day: 'M' },
        time_zone: opts.timeZone ?? 'America/New_York',
      }),
    ),
  );
  for (const [position, user_id] of opts.members.entries()) {
    created(await send(`/v1/schedule_rotations/${rotation.id}/schedule_rotation_users`, doc('schedule_rotation_users', { user_id, position: position + 1 })));
  }
  return { scheduleId, rotationId: rotation.id as string };
}
