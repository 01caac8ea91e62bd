import { registerOrganizationSeeder } from '@taproot/identity';
import type { ContextDescriptor } from '@taproot/runtime';
import { seedBuiltInAlertFields } from './alert-fields/built-in-alert-fields';
import { INBOUND_MEDIA_TYPES } from './alert-sources/inbound-routes';
import { PAGERDUTY_EVENTS_OPENAPI } from './alert-sources/pagerduty-events.openapi';
import { AlertingModule, ALERTING_RESOURCES } from './alerting.module';
import { ALERTS_OPENAPI } from './alerts/alert.openapi';
import { registerAlertingEventContracts } from './event-contracts';
import { ALERTING_MIGRATIONS } from './migrations';
import { ALERTING_ERRORS } from './errors';
import { PAGING_OPENAPI } from './paging/paging.openapi';
import { ALERT_ROUTING_OPENAPI } from './alert-routes/alert-routing.openapi';
import { HEARTBEATS_OPENAPI, withHeartbeatEmails } from './heartbeats/heartbeats.openapi';
import { LIVE_CALL_ROUTERS_OPENAPI } from './live-call-routers/live-call-routers.openapi';

// Every new organization has the built-in alert fields from the start (docs/alert-fields.md).
registerOrganizationSeeder((manager, organizationId) => seedBuiltInAlertFields(manager, [organizationId], new Date()));

export const ALERTING_CONTEXT: ContextDescriptor = {
  name: 'alerting',
  module: AlertingModule,
  migrations: ALERTING_MIGRATIONS,
  resources: ALERTING_RESOURCES.map((d) => d.schema),
  openapi: { schemas: { ...ALERTS_OPENAPI.schemas, ...PAGING_OPENAPI.schemas, ...ALERT_ROUTING_OPENAPI.schemas }, paths: { ...ALERTS_OPENAPI.paths, ...PAGING_OPENAPI.paths, ...HEARTBEATS_OPENAPI.paths, ...PAGERDUTY_EVENTS_OPENAPI.paths, ...ALERT_ROUTING_OPENAPI.paths, ...LIVE_CALL_ROUTERS_OPENAPI.paths } },
  errors: ALERTING_ERRORS,
  inbound: withHeartbeatEmails(INBOUND_MEDIA_TYPES),
  registerEventContracts: registerAlertingEventContracts,
};
