import { Body, Controller, Get, Patch } from '@nestjs/common';
import { CommandBus, CommandHandler } from '@nestjs/cqrs';
import { actorOf, CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { JsonApiError } from '@taproot/json-api';
import { domainEvent, type EventActor } from '@taproot/messaging';
import { ResourceWriteHandler } from '@taproot/resources';
import { DataSource } from 'typeorm';
import { AlertingErrorCode } from '../errors';
import { alertRouteDefinition } from './alert-route.schema';
import { ROUTING_SETTINGS_DEFAULTS, routingSettingsOf, type RoutingSettings } from './routing-settings';

const TYPE = 'alert_routing_settings';
const document = (organizationId: string, settings: RoutingSettings) => ({ data: { id: organizationId, type: TYPE, attributes: settings } });

/** The settings a PATCH body sends: booleans of the known settings only (422 naming the attribute otherwise). */
function parseSettings(body: unknown): Partial<RoutingSettings> {
  const data = (body as { data?: { type?: unknown; attributes?: unknown } } | null)?.data;
  if (!data || data.type !== TYPE || typeof data.attributes !== 'object' || data.attributes === null) {
    throw JsonApiError.of(422, 'Invalid resource object', `the body must be {"data":{"type":"${TYPE}","attributes":{...}}}`, 'INVALID_RESOURCE_OBJECT', { pointer: '/data' });
  }
  const problems = Object.entries(data.attributes as Record<string, unknown>).flatMap(([name, value]) =>
    !(name in ROUTING_SETTINGS_DEFAULTS)
      ? [{ attribute: name, detail: `${name} is not an alert routing setting (${Object.keys(ROUTING_SETTINGS_DEFAULTS).join(', ')})`, code: AlertingErrorCode.InvalidValue }]
      : typeof value !== 'boolean'
        ? [{ attribute: name, detail: `${name} must be true or false`, code: AlertingErrorCode.InvalidValue }]
        : [],
  );
  if (problems.length) throw JsonApiError.invalidAttributes(problems);
  return data.attributes as Partial<RoutingSettings>;
}

export class UpdateAlertRoutingSettingsCommand {
  constructor(
    readonly organizationId: string,
    readonly actor: EventActor,
    readonly userId: string | null,
    readonly changes: Partial<RoutingSettings>,
  ) {}
}

/** Writes the organization's alert routing settings and their `alert_routing_settings.updated` event. */
@CommandHandler(UpdateAlertRoutingSettingsCommand)
export class UpdateAlertRoutingSettingsHandler extends ResourceWriteHandler {
  execute(c: UpdateAlertRoutingSettingsCommand): Promise<RoutingSettings> {
    return this.write({ definition: alertRouteDefinition, organizationId: c.organizationId, actor: c.actor, userId: c.userId }, async (_writer, ctx, keep) => {
      const settings = { ...(await routingSettingsOf(ctx.manager, ctx.organizationId)), ...c.changes };
      await ctx.manager.query(
        `INSERT INTO alert_routing_settings (organization_id, advanced_alert_routing, asynchronous_rule_updates, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (organization_id) DO UPDATE SET advanced_alert_routing = $2, asynchronous_rule_updates = $3, updated_at = $4`,
        [ctx.organizationId, settings.advanced_alert_routing, settings.asynchronous_rule_updates, ctx.now],
      );
      const snapshot = { id: ctx.organizationId, ...settings };
      keep({ snapshot, events: [domainEvent({ type: `${TYPE}.updated`, organizationId: ctx.organizationId, aggregateType: TYPE, aggregateId: ctx.organizationId, actor: ctx.actor, payload: snapshot, occurredAt: ctx.now })] });
      return settings;
    });
  }
}

/**
 * `GET`/`PATCH /v1/alert_routing_settings` (Taproot's own, docs/alert-routing.md): the organization's
 * alert routing settings, one record whose id is the organization's. Changing them needs alert
 * routing rules update.
 */
@Controller('v1/alert_routing_settings')
export class AlertRoutingSettingsController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly commands: CommandBus,
  ) {}

  @Get()
  @RequirePermission('alert_routing_rules', 'read')
  async get(@CurrentCaller() caller: Caller) {
    return document(caller.organizationId, await routingSettingsOf(this.dataSource, caller.organizationId));
  }

  @Patch()
  @RequirePermission('alert_routing_rules', 'update')
  async update(@CurrentCaller() caller: Caller, @Body() body: unknown) {
    const changes = parseSettings(body);
    const userId = caller.userId === null ? null : String(caller.userId);
    return document(caller.organizationId, await this.commands.execute(new UpdateAlertRoutingSettingsCommand(caller.organizationId, actorOf(caller), userId, changes)));
  }
}
