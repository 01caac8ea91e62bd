export { AnalyticsModule, ANALYTICS_RESOURCES } from './analytics.module';
export { ANALYTICS_CONTEXT } from './analytics.context';
export { ANALYTICS_MIGRATIONS } from './migrations';
