import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { authorizationDefinition } from './authorizations/authorization.schema';
import { ChartsController } from './charts/charts.controller';
import { DashboardPanelsController } from './dashboard-panels/dashboard-panels.controller';
import { dashboardPanelDefinition } from './dashboard-panels/dashboard-panel.schema';
import { DuplicateDashboardHandler, DuplicateDashboardPanelHandler, SetDefaultDashboardHandler } from './dashboards/dashboard-commands';
import { dashboardDefinition } from './dashboards/dashboard.schema';
import { DashboardActionsController } from './dashboards/dashboards.controller';

export const ANALYTICS_RESOURCES = [dashboardDefinition, dashboardPanelDefinition, authorizationDefinition];

/** The analytics context: dashboards and their panels, grants on dashboards (docs/authorizations.md), and the charts of services, functionalities and teams, whose data other contexts' ports count (docs/dashboards.md). */
@Module({
  controllers: [resourceController(dashboardDefinition), resourceController(authorizationDefinition), DashboardActionsController, DashboardPanelsController, ChartsController],
  providers: [DuplicateDashboardHandler, DuplicateDashboardPanelHandler, SetDefaultDashboardHandler],
})
export class AnalyticsModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    for (const definition of ANALYTICS_RESOURCES) this.projections.inline(new ResourceListProjection(definition));
  }
}
