import type { Row } from '@taproot/resources';
import { OnCallErrorCode } from '../errors';
import { timeOfDayIssue, type Issue } from '../shared/times';

/** Rotation days as the reference writes them: Sunday S, Monday M, ... Thursday R, Saturday U. */
export const DAY_NAMES = ['S', 'M', 'T', 'W', 'R', 'F', 'U'] as const;

export const ROTATION_TYPES = ['ScheduleDailyRotation', 'ScheduleWeeklyRotation', 'ScheduleBiweeklyRotation', 'ScheduleMonthlyRotation', 'ScheduleCustomRotation'] as const;
export type RotationType = (typeof ROTATION_TYPES)[number];

interface Member {
  required: boolean;
  /** The values it takes, when they are a set. */
  values?: readonly string[];
  check?: (pointer: string, value: unknown) => Issue | null;
}

const handoffTime: Member = { required: true, check: timeOfDayIssue };
const handoffDay = (values: readonly string[]): Member => ({ required: true, values });
const positive = (pointer: string, value: unknown): Issue | null =>
  Number.isInteger(value) && (value as number) >= 1 ? null : { attribute: pointer, detail: `${pointer.replace(/\//g, '.')} must be a whole number of at least 1 (got ${JSON.stringify(value)})`, code: OnCallErrorCode.InvalidRotationAttributes };

/** The reference's `schedule_rotationable_attributes`, one closed shape per rotation type. */
const SHAPES: Record<RotationType, Record<string, Member>> = {
  ScheduleDailyRotation: { handoff_time: handoffTime },
  ScheduleWeeklyRotation: { handoff_time: handoffTime, handoff_day: handoffDay(DAY_NAMES) },
  ScheduleBiweeklyRotation: { handoff_time: handoffTime, handoff_day: handoffDay(DAY_NAMES) },
  ScheduleMonthlyRotation: { handoff_time: handoffTime, handoff_day: handoffDay(['first_day_of_month', 'last_day_of_month']) },
  ScheduleCustomRotation: { handoff_time: handoffTime, shift_length: { required: true, check: positive }, shift_length_unit: { required: true, values: ['hours', 'days', 'weeks'] } },
};

const ATTRIBUTE = 'schedule_rotationable_attributes';

/**
 * `attributes` must be the shape of rotation `type`: its members present and valid, no other
 * member (the reference's shapes are closed). One issue per member, pointing below
 * `/data/attributes/schedule_rotationable_attributes/`.
 */
export function rotationableIssues(type: RotationType, attributes: Row): Issue[] {
  const shape = SHAPES[type];
  const issues: Issue[] = [];
  const at = (member: string) => `${ATTRIBUTE}/${member}`;
  for (const member of Object.keys(attributes)) {
    if (!(member in shape)) issues.push({ attribute: at(member), detail: `${ATTRIBUTE}.${member} is not an attribute of a ${type}; it takes ${Object.keys(shape).join(', ')}`, code: OnCallErrorCode.InvalidRotationAttributes });
  }
  for (const [member, rule] of Object.entries(shape)) {
    const value = attributes[member];
    if (value === undefined || value === null) {
      if (rule.required) issues.push({ attribute: at(member), detail: `${ATTRIBUTE}.${member} is required for a ${type}`, code: 'REQUIRED_ATTRIBUTE' });
      continue;
    }
    if (rule.values && !rule.values.includes(value as string)) {
      issues.push({ attribute: at(member), detail: `${ATTRIBUTE}.${member} of a ${type} must be one of ${rule.values.join(', ')} (got ${JSON.stringify(value)})`, code: OnCallErrorCode.InvalidRotationAttributes });
    }
    const issue = rule.check?.(at(member), value);
    if (issue) issues.push(issue);
  }
  return issues;
}
