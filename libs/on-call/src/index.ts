export { OnCallModule, ON_CALL_RESOURCES } from './on-call.module';
export { ON_CALL_CONTEXT } from './on-call.context';
export { ON_CALL_MIGRATIONS } from './migrations';
export { OnCallErrorCode } from './errors';
export { scheduleSchema, scheduleDefinition } from './schedules/schedule.schema';
export { scheduleRotationSchema, scheduleRotationDefinition } from './schedule-rotations/schedule-rotation.schema';
export { ROTATION_TYPES, DAY_NAMES, type RotationType } from './schedule-rotations/rotationable';
export { scheduleRotationUserSchema, scheduleRotationUserDefinition } from './schedule-rotation-users/schedule-rotation-user.schema';
export { scheduleRotationActiveDaySchema, scheduleRotationActiveDayDefinition } from './schedule-rotation-active-days/schedule-rotation-active-day.schema';
export { overrideShiftSchema, overrideShiftDefinition } from './override-shifts/override-shift.schema';
export { onCallShadowSchema, onCallShadowDefinition } from './on-call-shadows/on-call-shadow.schema';
export { onCallPayReportSchema, onCallPayReportDefinition } from './on-call-pay-reports/on-call-pay-report.schema';
export { escalationPolicySchema, escalationPolicyDefinition } from './escalation-policies/escalation-policy.schema';
export { ESCALATION_POLICIES_PER_TEAM } from './escalation-policies/team-policy-cap';
export { escalationPathSchema, escalationPathDefinition } from './escalation-paths/escalation-path.schema';
export { escalationLevelSchema, escalationLevelDefinition } from './escalation-levels/escalation-level.schema';
export * from './schedules/engine';
export { shiftsOfSchedules, type Window } from './shifts/shift-reader';
export {
  choosePath,
  deferredUntil,
  firstStep,
  nextStep,
  pathAfterDeferral,
  pickRecipients,
  type AlertFacts,
  type EscalationPlan,
  type NotificationTarget,
  type PagingStrategy,
  type PathRule,
  type PlanLevel,
  type PlanPath,
  type Step,
  type TimeRestriction,
  type WeekDay,
} from './paging-plan/escalation-plan';
export { escalationPlanOf, existingEscalationPolicyIds, escalationPolicyIdsOfTeams, retriggerTimeoutsOfPaths } from './paging-plan/escalation-plan-reader';
export { levelRecipients, type LevelRecipient, type ShiftSource } from './paging-plan/level-recipients';
