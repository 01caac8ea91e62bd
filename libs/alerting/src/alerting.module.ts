import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { TAPROOT_CONFIG, type TaprootConfig } from '@taproot/config';
import type { Mailer } from '@taproot/mail';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { MAILER } from '@taproot/runtime';
import { AlertIngestionController } from './alert-sources/alert-ingestion.controller';
import { IngestAlertsHandler } from './alert-sources/ingest-alerts/ingest-alerts.handler';
import { AlertReceiptsController } from './alert-sources/alert-receipts.controller';
import { EnqueuePagerDutyEventHandler } from './alert-sources/enqueue-pagerduty-event/enqueue-pagerduty-event.handler';
import { PagerDutyEventsController } from './alert-sources/pagerduty-events.controller';
import { alertSourceDefinition, alertSourceEndpoints } from './alert-sources/alert-source.schema';
import { alertFieldDefinition } from './alert-fields/alert-field.schema';
import { alertRouteDefinition } from './alert-routes/alert-route.schema';
import { alertGroupDefinition } from './alert-groups/alert-group.schema';
import { alertRoutingRuleDefinition } from './alert-routes/alert-routing-rule.schema';
import { alertRetriggerRuleDefinition } from './alert-retrigger-rules/alert-retrigger-rule.schema';
import { AlertRouteRuleUpdater, AlertRouteRuleUpdatesController } from './alert-routes/rule-updates';
import { AlertRoutingSettingsController, UpdateAlertRoutingSettingsHandler } from './alert-routes/routing-settings.controller';
import { alertUrgencyDefinition } from './alert-urgencies/alert-urgency.schema';
import { ALERT_COMMAND_HANDLERS } from './alerts/commands';
import { alertEventDefinition } from './alerts/alert-event.schema';
import { alertDefinition } from './alerts/alert.schema';
import { AlertsController } from './alerts/alerts.controller';
import { AlertAcknowledgementsController } from './paging/alert-acknowledgements.controller';
import { notificationChannelsOf } from './paging/channels/channels';
import { NOTIFICATION_CHANNELS, PagingEngine } from './paging/paging-engine';
import { CreatePageHandler } from './paging/pages/create-page.handler';
import { PagesController } from './paging/pages/pages.controller';
import { heartbeatDefinition, heartbeatEndpoints } from './heartbeats/heartbeat.schema';
import { liveCallRouterDefinition } from './live-call-routers/live-call-router.schema';
import { LiveCallRouterPhoneNumbersController } from './live-call-routers/phone-numbers.controller';
import { HeartbeatMonitor } from './heartbeats/heartbeat-monitor';
import { HeartbeatPingController, HeartbeatPublicPingController } from './heartbeats/heartbeats.controller';
import { PingHeartbeatHandler } from './heartbeats/ping-heartbeat/ping-heartbeat.handler';

export const ALERTING_RESOURCES = [alertUrgencyDefinition, alertFieldDefinition, alertSourceDefinition, heartbeatDefinition, alertRouteDefinition, alertRoutingRuleDefinition, alertGroupDefinition, alertRetriggerRuleDefinition, liveCallRouterDefinition];

/** The alerting bounded context: alert urgencies and fields, alert sources, alerts, their events, and paging. */
@Module({
  // The alert controller goes first: its routes (`/v1/alerts/...`) are its own.
  controllers: [LiveCallRouterPhoneNumbersController, AlertsController, AlertRoutingSettingsController, AlertRouteRuleUpdatesController, AlertAcknowledgementsController, PagesController, AlertIngestionController, AlertReceiptsController, HeartbeatPingController, HeartbeatPublicPingController, PagerDutyEventsController, ...[...ALERTING_RESOURCES, alertEventDefinition].map((definition) => resourceController(definition))],
  providers: [
    ...ALERT_COMMAND_HANDLERS,
    IngestAlertsHandler,
    EnqueuePagerDutyEventHandler,
    CreatePageHandler,
    // Paging: the channels this process delivers through, and the engine that fires steps and sends.
    { provide: NOTIFICATION_CHANNELS, useFactory: (config: TaprootConfig, mailer: Mailer | null) => notificationChannelsOf(config, mailer), inject: [TAPROOT_CONFIG, MAILER] },
    PagingEngine,
    // Alert routes: the settings' command, and the saving of deferred rule updates.
    UpdateAlertRoutingSettingsHandler,
    AlertRouteRuleUpdater,
    PingHeartbeatHandler,
    HeartbeatMonitor,
  ],
})
export class AlertingModule implements OnModuleInit {
  constructor(
    private readonly projections: ProjectionRunner,
    @Inject(TAPROOT_CONFIG) config: TaprootConfig,
  ) {
    // webhook_endpoint is an absolute URL on the API's public base URL.
    alertSourceEndpoints.base = config.publicUrl;
    // ping_url too; email_address is on the public host's domain (a relay posts its mail to /v1/heartbeat_emails).
    Object.assign(heartbeatEndpoints, { base: config.publicUrl, emailDomain: new URL(config.publicUrl).hostname });
  }

  onModuleInit(): void {
    for (const definition of [...ALERTING_RESOURCES, alertDefinition, alertEventDefinition]) this.projections.inline(new ResourceListProjection(definition));
  }
}
