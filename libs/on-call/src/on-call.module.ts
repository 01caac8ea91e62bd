import { Module, type OnModuleInit } from '@nestjs/common';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import { CommitCache, ProjectionRunner, UnitOfWork } from '@taproot/messaging';
import { DataSource } from 'typeorm';
import { resourceController, ResourceListProjection, type ResourceDefinition } from '@taproot/resources';
import { CALENDAR_FEED_HANDLERS } from './calendar-feeds/calendar-feed-commands';
import { CalendarFeedsController } from './calendar-feeds/calendar-feeds.controller';
import { escalationLevelDefinition } from './escalation-levels/escalation-level.schema';
import { PathLevelsController } from './escalation-levels/path-levels.controller';
import { escalationPathDefinition } from './escalation-paths/escalation-path.schema';
import { escalationPolicyDefinition } from './escalation-policies/escalation-policy.schema';
import { onCallPayReportDefinition } from './on-call-pay-reports/on-call-pay-report.schema';
import { OnCallPayReportsController } from './on-call-pay-reports/on-call-pay-reports.controller';
import { onCallShadowDefinition } from './on-call-shadows/on-call-shadow.schema';
import { overrideShiftDefinition } from './override-shifts/override-shift.schema';
import { scheduleRotationActiveDayDefinition } from './schedule-rotation-active-days/schedule-rotation-active-day.schema';
import { scheduleRotationUserDefinition } from './schedule-rotation-users/schedule-rotation-user.schema';
import { scheduleRotationDefinition } from './schedule-rotations/schedule-rotation.schema';
import { scheduleDefinition } from './schedules/schedule.schema';
import { SHIFT_COVERAGE_REQUEST_HANDLERS } from './shift-coverage-requests/shift-coverage-request-commands';
import { shiftCoverageRequestDefinition } from './shift-coverage-requests/shift-coverage-request.schema';
import { ShiftCoverageRequestsController } from './shift-coverage-requests/shift-coverage-requests.controller';
import { RotationHistoryProjection } from './shifts/rotation-history.projection';
import { SHIFT_INPUTS, ShiftReader } from './shifts/shift-reader';
import { ShiftsController } from './shifts/shifts.controller';
import { OncallsController } from './oncalls/oncalls.controller';

/** The schedule and escalation resources, parents before the records under them. */
export const ON_CALL_RESOURCES: readonly ResourceDefinition[] = [
  scheduleDefinition,
  scheduleRotationDefinition,
  scheduleRotationUserDefinition,
  scheduleRotationActiveDayDefinition,
  overrideShiftDefinition,
  onCallShadowDefinition,
  escalationPolicyDefinition,
  escalationPathDefinition,
  escalationLevelDefinition,
  onCallPayReportDefinition,
];

/** The on-call bounded context: schedules and what lives under them; paging and escalation come later. */
@Module({
  controllers: [...ON_CALL_RESOURCES.map((definition) => resourceController(definition)), ShiftsController, CalendarFeedsController, ShiftCoverageRequestsController, PathLevelsController, OncallsController, OnCallPayReportsController],
  providers: [
    ...CALENDAR_FEED_HANDLERS,
    ...SHIFT_COVERAGE_REQUEST_HANDLERS,
    {
      provide: ShiftReader,
      // Computed shifts are reused until a schedule change commits here, or for the ttl (other replicas' changes).
      useFactory: (dataSource: DataSource, unitOfWork: UnitOfWork, config: TaprootConfig) =>
        new ShiftReader(dataSource, new CommitCache({ ttlMs: config.shiftCacheTtlMs, invalidatedBy: SHIFT_INPUTS, maxEntries: 100_000 }, unitOfWork)),
      inject: [DataSource, UnitOfWork, TAPROOT_CONFIG],
    },
  ],
})
export class OnCallModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    for (const definition of [...ON_CALL_RESOURCES, shiftCoverageRequestDefinition]) this.projections.inline(new ResourceListProjection(definition));
    // After the rotations' own read models: a change of a rotation stores its new version (shifts).
    this.projections.inline(new RotationHistoryProjection());
  }
}
