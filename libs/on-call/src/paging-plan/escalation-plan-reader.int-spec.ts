import { afterAll as after, beforeAll as before, describe, expect, test } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createOrganization, OperatorUsers, teamSchema } from '@taproot/identity';
import { InProcessEventBus, ProjectionRunner, UnitOfWork } from '@taproot/messaging';
import { openTestDataSource } from '@taproot/persistence';
import { CreateResourceCommand, CreateResourceHandler, ResourceListProjection, type ResourceDefinition, type Row } from '@taproot/resources';
import type { DataSource } from 'typeorm';
import { escalationLevelDefinition } from '../escalation-levels/escalation-level.schema';
import { escalationPathDefinition } from '../escalation-paths/escalation-path.schema';
import { escalationPolicyDefinition } from '../escalation-policies/escalation-policy.schema';
import { ON_CALL_RESOURCES } from '../on-call.module';
import { onCallShadowDefinition } from '../on-call-shadows/on-call-shadow.schema';
import { scheduleRotationUserDefinition } from '../schedule-rotation-users/schedule-rotation-user.schema';
import { scheduleRotationDefinition } from '../schedule-rotations/schedule-rotation.schema';
import { scheduleDefinition } from '../schedules/schedule.schema';
import { RotationHistoryProjection } from '../shifts/rotation-history.projection';
import { shiftsOfSchedules } from '../shifts/shift-reader';
import type { PlanLevel } from './escalation-plan';
import { escalationPlanOf, escalationPolicyIdsOfTeams, existingEscalationPolicyIds } from './escalation-plan-reader';
import { levelRecipients, type ShiftSource } from './level-recipients';

const actor = { kind: 'api_key' as const, id: randomUUID() };
// A second per write: the oldest policy of a team is the first created.
let tick = Date.parse('2026-11-23T10:00:00.000Z');
const clock = { now: () => new Date((tick += 1000)) };
// Identity publishes the team declaration, not its command: the generic handler writes `groups` and `groups_read` the same way.
const teamDefinition: ResourceDefinition = { schema: teamSchema, context: 'identity', table: 'groups' };

describe('escalation plans and level recipients (what the paging engine asks of on-call)', () => {
  let ds: DataSource;
  let uow: UnitOfWork;
  let shifts: ShiftSource;
  before(async () => {
    ds = await openTestDataSource();
    const projections = new ProjectionRunner(ds, new InProcessEventBus());
    for (const definition of [...ON_CALL_RESOURCES, teamDefinition]) projections.inline(new ResourceListProjection(definition));
    projections.inline(new RotationHistoryProjection());
    uow = new UnitOfWork(ds, null, projections);
    shifts = { shifts: (organizationId, scheduleIds, window) => shiftsOfSchedules(ds, organizationId, scheduleIds, window) };
  });
  after(() => ds.destroy());

  const create = async (definition: ResourceDefinition, organizationId: string, attributes: Row, parentId?: string): Promise<string> =>
    (await new CreateResourceHandler(uow, clock).execute(new CreateResourceCommand(definition, organizationId, actor, attributes, parentId))).id;

  /** An organization with five users, a team (two members, one admin), a daily schedule of two and a policy of the team. */
  async function organization() {
    const { organizationId } = await ds.transaction((m) => createOrganization(m, { name: 'Paging', ownerEmail: `${randomUUID()}@example.test` }));
    const users = new OperatorUsers(ds, clock);
    const [alice, bob, carol, dave, erin] = await Promise.all(
      ['alice', 'bob', 'carol', 'dave', 'erin'].map(async (name) => (await users.add(organizationId, { email: `${name}-${randomUUID()}@example.test`, name, role: null })).user_id),
    );
    const team = await create(teamDefinition, organizationId, { name: `Team ${randomUUID()}`, user_ids: [dave, erin], admin_ids: [erin] });
    const schedule = await create(scheduleDefinition, organizationId, { name: 'Primary', owner_user_id: alice });
    const rotation = await create(
      scheduleRotationDefinition,
      organizationId,
      { name: 'Daily', schedule_rotationable_type: 'ScheduleDailyRotation', schedule_rotationable_attributes: { handoff_time: '00:00' }, start_time: '2026-11-01T00:00:00.000Z' },
      schedule,
    );
    for (const [position, user_id] of [alice, bob].entries()) await create(scheduleRotationUserDefinition, organizationId, { user_id, position: position + 1 }, rotation);
    const policy = await create(escalationPolicyDefinition, organizationId, { name: 'Primary', group_ids: [team] });
    return { organizationId, alice, bob, carol, dave, erin, team, schedule, policy };
  }

  test('the plan: paths by position, levels by position on their paths, levels without a path on the default one', async () => {
    const org = await organization();
    const { organizationId, policy } = org;
    const urgent = await create(
      escalationPathDefinition,
      organizationId,
      { name: 'Urgent', position: 1, repeat: true, repeat_count: 2, match_mode: 'match-any-rule', rules: [{ rule_type: 'alert_urgency', urgency_ids: ['high'] }], time_restriction_time_zone: 'Europe/Paris' },
      policy,
    );
    const fallback = await create(escalationPathDefinition, organizationId, { name: 'Default', default: true, position: 0, notification_type: 'quiet' }, policy);
    const deferral = await create(escalationPathDefinition, organizationId, { name: 'Nights', path_type: 'deferral', position: 2, after_deferral_behavior: 're_evaluate' }, policy);
    const second = await create(escalationLevelDefinition, organizationId, { position: 2, delay: 10, notification_target_params: [{ id: String(org.carol), type: 'user' }] }, policy);
    const first = await create(escalationLevelDefinition, organizationId, { position: 1, delay: 5, notification_target_params: [{ id: org.schedule, type: 'schedule' }] }, policy);
    const onUrgent = await create(
      escalationLevelDefinition,
      organizationId,
      { escalation_policy_path_id: urgent, position: 3, notification_target_params: [{ id: org.team, type: 'team', team_members: 'admins' }], paging_strategy_configuration_strategy: 'cycle' },
      policy,
    );

    const plan = await escalationPlanOf(ds, organizationId, policy.toUpperCase());
    expect(plan?.policy).toEqual({ id: policy, name: 'Primary' });
    expect(plan?.paths.map((p) => [p.id, p.path_type, p.default, p.position, p.levels.map((l) => l.id)])).toEqual([
      [fallback, 'escalation', true, 0, [first, second]],
      [urgent, 'escalation', false, 1, [onUrgent]],
      [deferral, 'deferral', false, 2, []],
    ]);
    const [defaultPath, urgentPath, deferralPath] = plan!.paths;
    expect(deferralPath).toMatchObject({ after_deferral_behavior: 're_evaluate', after_deferral_path_id: null });
    expect(defaultPath).toMatchObject({ notification_type: 'quiet', match_mode: 'match-all-rules', repeat: false, initial_delay: 0, rules: [], time_restrictions: [] });
    expect(urgentPath).toMatchObject({ repeat: true, repeat_count: 2, match_mode: 'match-any-rule', time_restriction_time_zone: 'Europe/Paris', rules: [{ rule_type: 'alert_urgency', urgency_ids: ['high'] }] });
    expect(urgentPath.levels[0]).toEqual({
      id: onUrgent,
      position: 3,
      delay: 0,
      notification_target_params: [{ id: org.team, type: 'team', team_members: 'admins' }],
      paging_strategy_configuration_strategy: 'cycle',
      paging_strategy_configuration_schedule_strategy: 'on_call_only',
    });
  });

  test('levels of a policy without a default path run on an implicit default path that repeats as the policy says', async () => {
    const { organizationId, carol } = await organization();
    const policy = await create(escalationPolicyDefinition, organizationId, { name: 'Legacy', repeat_count: 3 });
    const level = await create(escalationLevelDefinition, organizationId, { notification_target_params: [{ id: String(carol), type: 'user' }] }, policy);
    const plan = await escalationPlanOf(ds, organizationId, policy);
    expect(plan?.paths).toHaveLength(1);
    expect(plan?.paths[0]).toMatchObject({ id: null, path_type: 'escalation', default: true, repeat: true, repeat_count: 3, rules: [] });
    expect(plan?.paths[0].levels.map((l) => l.id)).toEqual([level]);
    const empty = await create(escalationPolicyDefinition, organizationId, { name: 'Empty' });
    expect(await escalationPlanOf(ds, organizationId, empty)).toEqual({ policy: { id: empty, name: 'Empty' }, paths: [] });
  });

  test("recipients of each target type and schedule strategy, in target order, once each", async () => {
    const org = await organization();
    const { organizationId } = org;
    const at = new Date('2026-12-02T12:00:00.000Z');
    const onCallNow = (await shiftsOfSchedules(ds, organizationId, [org.schedule], { from: at, to: new Date(at.getTime() + 1) })).map((s) => s.user_id);
    expect(onCallNow).toHaveLength(1);
    const [onCall] = onCallNow;
    const offCall = onCall === org.alice ? org.bob : org.alice;
    // A shadow of whoever is on call is not paged.
    await create(onCallShadowDefinition, organizationId, { shadowable_type: 'User', shadowable_id: String(onCall), shadow_user_id: org.carol, starts_at: '2026-12-01T00:00:00Z', ends_at: '2026-12-04T00:00:00Z' }, org.schedule);
    const service = randomUUID();
    const level = (targets: PlanLevel['notification_target_params'], schedule_strategy: PlanLevel['paging_strategy_configuration_schedule_strategy'] = 'on_call_only'): PlanLevel => ({
      id: randomUUID(),
      position: 1,
      delay: 0,
      notification_target_params: targets,
      paging_strategy_configuration_strategy: 'default',
      paging_strategy_configuration_schedule_strategy: schedule_strategy,
    });
    const recipients = (l: PlanLevel) => levelRecipients(ds, organizationId, l, at, shifts);

    expect(await recipients(level([{ id: org.schedule, type: 'schedule' }]))).toEqual([{ userId: onCall, targetType: 'Schedule', targetId: org.schedule }]);
    expect(await recipients(level([{ id: org.schedule, type: 'schedule' }], 'everyone'))).toEqual([
      { userId: org.alice, targetType: 'Schedule', targetId: org.schedule },
      { userId: org.bob, targetType: 'Schedule', targetId: org.schedule },
    ]);
    expect(await recipients(level([{ id: org.team, type: 'team', team_members: 'admins' }]))).toEqual([{ userId: org.erin, targetType: 'Group', targetId: org.team }]);
    for (const team_members of ['all', null, 'escalate'] as const) {
      expect((await recipients(level([{ id: org.team, type: 'team', team_members }]))).map((r) => r.userId)).toEqual([org.dave, org.erin]);
    }
    expect(
      await recipients(
        level([
          { id: String(org.erin), type: 'user' },
          { id: service, type: 'service' },
          { id: 'C0123', type: 'slack_channel' },
          { id: org.team, type: 'team', team_members: 'all' },
          { id: org.schedule.toUpperCase(), type: 'schedule' },
          { id: String(onCall), type: 'user' },
          { id: 'T0123', type: 'microsoft_teams_channel' },
        ]),
      ),
    ).toEqual([
      { userId: org.erin, targetType: 'User', targetId: String(org.erin) },
      { userId: org.dave, targetType: 'Group', targetId: org.team },
      { userId: onCall, targetType: 'Schedule', targetId: org.schedule },
    ]);
    expect(await recipients(level([{ id: service, type: 'service' }]))).toEqual([]);
    // A day later the other member is on call.
    expect((await levelRecipients(ds, organizationId, level([{ id: org.schedule, type: 'schedule' }]), new Date(at.getTime() + 86_400_000), shifts)).map((r) => r.userId)).toEqual([offCall]);
  });

  test("another organization's policies, teams, schedules and users are never answered", async () => {
    const mine = await organization();
    const theirs = await organization();
    const other = await create(escalationPolicyDefinition, theirs.organizationId, { name: 'Theirs', group_ids: [theirs.team] });

    expect(await escalationPlanOf(ds, mine.organizationId, theirs.policy)).toBeNull();
    expect(await escalationPlanOf(ds, mine.organizationId, 'not-a-uuid')).toBeNull();
    expect(await escalationPlanOf(ds, mine.organizationId, randomUUID())).toBeNull();
    expect(await existingEscalationPolicyIds(ds, mine.organizationId, [mine.policy.toUpperCase(), theirs.policy, other, 'primary', '', randomUUID()])).toEqual(new Set([mine.policy]));

    const newer = await create(escalationPolicyDefinition, mine.organizationId, { name: 'Newer', group_ids: [mine.team] });
    expect(newer).not.toBe(mine.policy);
    expect(await escalationPolicyIdsOfTeams(ds, mine.organizationId, [mine.team.toUpperCase(), theirs.team, 'team', randomUUID()])).toEqual(new Map([[mine.team, mine.policy]]));
    expect(await escalationPolicyIdsOfTeams(ds, theirs.organizationId, [theirs.team])).toEqual(new Map([[theirs.team, theirs.policy]]));

    const level: PlanLevel = {
      id: randomUUID(),
      position: 1,
      delay: 0,
      notification_target_params: [
        { id: String(theirs.alice), type: 'user' },
        { id: theirs.team, type: 'team' },
        { id: theirs.schedule, type: 'schedule' },
        { id: String(mine.carol), type: 'user' },
      ],
      paging_strategy_configuration_strategy: 'default',
      paging_strategy_configuration_schedule_strategy: 'everyone',
    };
    expect(await levelRecipients(ds, mine.organizationId, level, new Date('2026-12-02T12:00:00Z'), shifts)).toEqual([{ userId: mine.carol, targetType: 'User', targetId: String(mine.carol) }]);
    const onCallOnly = { ...level, paging_strategy_configuration_schedule_strategy: 'on_call_only' as const };
    expect((await levelRecipients(ds, mine.organizationId, onCallOnly, new Date('2026-12-02T12:00:00Z'), shifts)).map((r) => r.userId)).toEqual([mine.carol]);
  });
});
