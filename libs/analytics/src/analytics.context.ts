import { registerEventContract } from '@taproot/messaging';
import { registerSnapshotEvents } from '@taproot/resources';
import type { ContextDescriptor } from '@taproot/runtime';
import { AnalyticsModule, ANALYTICS_RESOURCES } from './analytics.module';
import { CHARTS_OPENAPI } from './charts/charts.openapi';
import { DASHBOARDS_OPENAPI } from './dashboard-panels/dashboard-panels.openapi';
import { DASHBOARD_DEFAULT_SET } from './dashboards/dashboard-commands';
import { ANALYTICS_MIGRATIONS } from './migrations';

export const ANALYTICS_CONTEXT: ContextDescriptor = {
  name: 'analytics',
  module: AnalyticsModule,
  migrations: ANALYTICS_MIGRATIONS,
  resources: ANALYTICS_RESOURCES.map((d) => d.schema),
  openapi: { schemas: CHARTS_OPENAPI.schemas, paths: { ...DASHBOARDS_OPENAPI.paths, ...CHARTS_OPENAPI.paths } },
  registerEventContracts() {
    ANALYTICS_RESOURCES.forEach((d) => registerSnapshotEvents(d.schema));
    registerEventContract(DASHBOARD_DEFAULT_SET, 1, (p) => (typeof p.dashboard_id === 'string' && typeof p.owner === 'string' ? null : 'dashboard_id and owner must be strings'));
  },
};
