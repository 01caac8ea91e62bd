import { CreateSchedules1732300005000 } from './1732300005000-create-schedules';
import { ScheduleRotationVersions1732300005900 } from './1732300005900-schedule-rotation-versions';
import { CalendarFeeds1732300006100 } from './1732300006100-calendar-feeds';
import { ShiftCoverageRequests1732300006500 } from './1732300006500-shift-coverage-requests';
import { EscalationPolicies1732300007000 } from './1732300007000-escalation-policies';
import { EscalationPaths1732300007100 } from './1732300007100-escalation-paths';
import { EscalationLevels1732300007200 } from './1732300007200-escalation-levels';
import { EscalationPathRetriggerTimeout1732300009400 } from './1732300009400-escalation-path-retrigger-timeout';
import { OnCallPayReports1732300011300 } from './1732300011300-on-call-pay-reports';

export const ON_CALL_MIGRATIONS = [CreateSchedules1732300005000, ScheduleRotationVersions1732300005900, CalendarFeeds1732300006100, ShiftCoverageRequests1732300006500, EscalationPolicies1732300007000, EscalationPaths1732300007100, EscalationLevels1732300007200, EscalationPathRetriggerTimeout1732300009400, OnCallPayReports1732300011300];
