import { CreateSchedules1732300005000 } from './1732300005000-create-schedules';

export const ON_CALL_MIGRATIONS = [CreateSchedules1732300005000];
