import { CreateSchedules1732300005000 } from './1732300005000-create-schedules';
import { ScheduleRotationVersions1732300005900 } from './1732300005900-schedule-rotation-versions';

export const ON_CALL_MIGRATIONS = [CreateSchedules1732300005000, ScheduleRotationVersions1732300005900];
