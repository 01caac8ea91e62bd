import { Controller, Get, Query } from '@nestjs/common';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { userRecords } from '@taproot/identity';
import { JsonApiError, readRecords, type FlatQuery, type ResourceObject, type ResourceSchema } from '@taproot/json-api';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { escalationPolicySchema } from '../escalation-policies/escalation-policy.schema';
import { scheduleSchema } from '../schedules/schedule.schema';
import { groupBy } from '../shared/group-by';
import { instantParameter, listParameter, timeZoneParameter } from '../shared/query-parameters';
import { teamMembersOf } from '../shared/team-members';
import { ShiftReader } from '../shifts/shift-reader';
import { answeredIn, oncallsOf, type LevelOfOncalls, type Oncall, type PathOfOncalls, type PolicyOfOncalls } from './oncalls';

const INCLUDES = ['user', 'schedule', 'escalation_policy'] as const;
const NOTIFICATION_TYPES = ['audible', 'quiet'];

const oncallId = (o: Oncall) =>
  createHash('sha256').update([o.escalation_policy_id, o.escalation_policy_path_id, o.escalation_level, o.schedule_id, o.user_id, o.starts_at].join('|')).digest('hex').slice(0, 32);

/**
 * `GET /v1/oncalls` (reference: listOncalls): who is on call for each escalation policy, path and
 * level, from the levels' targets and the schedules' shifts (docs/escalation-policies.md).
 * `since`/`until` bound the window (default: now); the reference's filters and includes.
 */
@Controller()
export class OncallsController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly shifts: ShiftReader,
  ) {}

  @Get('v1/oncalls')
  @RequirePermission('escalation_policies', 'read')
  async list(@CurrentCaller() caller: Caller, @Query() query: FlatQuery) {
    const org = caller.organizationId;
    const since = instantParameter('since', query.since) ?? new Date();
    const until = instantParameter('until', query.until) ?? since;
    if (until < since) throw JsonApiError.badParameter('until', 'until must not be before since');
    if (until.getTime() - since.getTime() > 366 * 86_400_000) throw JsonApiError.badParameter('until', 'since and until may be at most 366 days apart');
    const zone = timeZoneParameter('time_zone', query.time_zone);
    const include = (typeof query.include === 'string' ? query.include.split(',') : []).map((v) => v.trim()).filter(Boolean);
    const unknown = include.find((name) => !(INCLUDES as readonly string[]).includes(name));
    if (unknown) throw JsonApiError.badParameter('include', `Unknown relationship '${unknown}' in include; known: ${INCLUDES.join(', ')}`);
    const types = listParameter(query, 'filter[notification_types]');
    if (types?.some((t) => !NOTIFICATION_TYPES.includes(t))) throw JsonApiError.badParameter('filter[notification_types]', `filter[notification_types] takes ${NOTIFICATION_TYPES.join(', ')}`);
    const policyIds = listParameter(query, 'filter[escalation_policy_ids]');
    const groupIds = listParameter(query, 'filter[group_ids]');
    const serviceIds = listParameter(query, 'filter[service_ids]');

    const policies = (await this.dataSource.query(
      `SELECT id::text, name FROM escalation_policies_read WHERE organization_id = $1
         AND ($2::text[] IS NULL OR id::text = ANY($2)) AND ($3::text[] IS NULL OR group_ids && $3) AND ($4::text[] IS NULL OR service_ids && $4)`,
      [org, policyIds ?? null, groupIds ?? null, serviceIds ?? null],
    )) as PolicyOfOncalls[];
    const ids = policies.map((p) => p.id);
    const [paths, levels] = (await Promise.all([
      this.dataSource.query('SELECT id::text, name, "default", notification_type, path_type FROM escalation_paths_read WHERE organization_id = $1 AND escalation_policy_id::text = ANY($2)', [org, ids]),
      this.dataSource.query(
        'SELECT escalation_policy_id::text, escalation_policy_path_id, position, notification_target_params FROM escalation_levels_read WHERE organization_id = $1 AND escalation_policy_id::text = ANY($2)',
        [org, ids],
      ),
    ])) as [PathOfOncalls[], LevelOfOncalls[]];
    const targeted = (type: string) => [...new Set(levels.flatMap((l) => l.notification_target_params.filter((t) => t.type === type).map((t) => String(t.id))))];
    const scheduleIds = (await this.dataSource.query('SELECT id::text, name FROM schedules_read WHERE organization_id = $1 AND id::text = ANY($2)', [org, targeted('schedule')])) as {
      id: string;
      name: string;
    }[];
    const window = { from: since, to: new Date(Math.max(until.getTime(), since.getTime() + 1)) };
    const shifts = await this.shifts.shifts(org, scheduleIds.map((s) => s.id), window);
    const teams = await teamMembersOf(this.dataSource, org, targeted('team'));
    let entries = oncallsOf(
      levels,
      {
        policies: new Map(policies.map((p) => [p.id, p])),
        paths: new Map(paths.map((p) => [p.id, p])),
        shifts: groupBy(shifts, (s) => s.schedule_id),
        scheduleNames: new Map(scheduleIds.map((s) => [s.id, s.name])),
        teamMembers: new Map([...teams].map(([id, team]) => [id, team.members])),
      },
      { from: window.from.toISOString(), to: window.to.toISOString() },
      { earliest: query.earliest === 'true', audibleFirst: types !== undefined },
    );
    const userIds = listParameter(query, 'filter[user_ids]');
    const schedules = listParameter(query, 'filter[schedule_ids]');
    if (userIds) entries = entries.filter((e) => userIds.includes(String(e.user_id)));
    if (schedules) entries = entries.filter((e) => e.schedule_id !== null && schedules.includes(e.schedule_id));
    if (types) entries = entries.filter((e) => e.notification_type !== null && types.includes(e.notification_type));
    return this.document(org, entries, include, zone);
  }

  private async document(organizationId: string, entries: Oncall[], include: string[], zone: string | undefined) {
    const data: ResourceObject[] = entries.map((o) => ({
      // The id is of the instants, whatever zone they are written in.
      id: oncallId(o),
      type: 'on_call_resources',
      attributes: { ...answeredIn(o, zone) },
      relationships: {
        user: { data: { id: String(o.user_id), type: 'users' } },
        schedule: { data: o.schedule_id ? { id: o.schedule_id, type: 'schedules' } : null },
        escalation_policy: { data: { id: o.escalation_policy_id, type: 'escalation_policies' } },
      },
    }));
    if (include.length === 0) return { data };
    const included: ResourceObject[] = [];
    const withRelationships = (records: Map<string, ResourceObject>) => [...records.values()].map((r) => ({ ...r, relationships: r.relationships ?? {} }));
    if (include.includes('user')) included.push(...withRelationships(await userRecords(this.dataSource, organizationId, [...new Set(entries.map((e) => String(e.user_id)))])));
    const records = async (schema: ResourceSchema, ids: string[]) => withRelationships(await readRecords(this.dataSource, schema, organizationId, ids));
    if (include.includes('schedule')) included.push(...(await records(scheduleSchema, [...new Set(entries.flatMap((e) => (e.schedule_id ? [e.schedule_id] : [])))])));
    if (include.includes('escalation_policy')) included.push(...(await records(escalationPolicySchema, [...new Set(entries.map((e) => e.escalation_policy_id))])));
    return { data, included };
  }
}
