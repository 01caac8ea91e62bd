import { existingIds } from '@taproot/json-api';
import { ResourceWriter, type Keep, type Row, type WriteContext } from '@taproot/resources';
import { changeAlert, createAlert, recordAlertEvent, type AlertAccess } from '../alerts/alert-writes';
import { alertDefinition } from '../alerts/alert.schema';
import { checkAlertReferences } from '../alerts/notification-targets';
import { deadlineAfter, type HeartbeatIntervalUnit } from './heartbeat-interval';

const alertWriter = new ResourceWriter(alertDefinition);

/** How a ping arrived (the expiry alert's timeline says so when the ping resolves it). */
export type PingChannel = 'api' | 'ping_url' | 'email';

/**
 * A ping (docs/heartbeats.md): the heartbeat is active until `interval` from now; when it had
 * expired, the alert its expiry opened is resolved (unless someone resolved it already). The row
 * is locked first, so a ping and the monitor's expiry of the same heartbeat run one after the other.
 */
export async function pingHeartbeat(writer: ResourceWriter, ctx: WriteContext, keep: Keep, access: AlertAccess, id: string, channel: PingChannel): Promise<void> {
  const current = await writer.load(ctx.manager, ctx.organizationId, id, true);
  if (current.alert_id != null) {
    const alertId = String(current.alert_id);
    await changeAlert(alertWriter, ctx, keep, access, alertId, {
      kind: 'operation',
      operation: 'resolve',
      resolution: { message: `heartbeat ${String(current.name)} was pinged (${channel})`, relatedIncidents: false },
    });
    await ctx.manager.query('UPDATE heartbeats SET alert_id = NULL WHERE id = $1 AND organization_id = $2', [current.id, ctx.organizationId]);
  }
  const expires_at = deadlineAfter(ctx.now, current.interval as number, current.interval_unit as HeartbeatIntervalUnit);
  keep(await writer.update(ctx, String(current.id), { status: 'active', last_pinged_at: ctx.now, expires_at }));
}

/**
 * What the expiry alert names, from the heartbeat as it is now: an urgency or a target deleted
 * since the heartbeat was written is left out (the alert then opens without paging, and its
 * timeline says why) rather than holding the expiry up for ever.
 */
async function expiryAlertOf(ctx: WriteContext, heartbeat: Row): Promise<{ attributes: Row; dropped: string[] }> {
  const urgency = heartbeat.alert_urgency_id == null ? null : String(heartbeat.alert_urgency_id);
  const urgencyKnown = urgency !== null && (await existingIds(ctx.manager, 'alert_urgencies', ctx.organizationId, [urgency])).has(urgency);
  const target = { notification_target_type: heartbeat.notification_target_type, notification_target_id: heartbeat.notification_target_id };
  const { attributes, issues } = await checkAlertReferences(ctx, target);
  const dropped = [...(urgency !== null && !urgencyKnown ? [`alert_urgency_id ${urgency} no longer exists`] : []), ...issues.map((i) => i.detail)];
  return {
    attributes: {
      ...attributes,
      summary: heartbeat.alert_summary,
      description: heartbeat.alert_description ?? null,
      alert_urgency_id: urgencyKnown ? urgency : null,
      source: 'heartbeat',
      data: { heartbeat_id: String(heartbeat.id), heartbeat_name: heartbeat.name, last_pinged_at: heartbeat.last_pinged_at, expired_at: heartbeat.expires_at },
    },
    dropped,
  };
}

/**
 * Expires a heartbeat the monitor claimed (locked, active, enabled, past its deadline): an alert
 * with its summary, description and urgency pages its notification target, and the heartbeat is
 * `expired` until the next ping resolves that alert.
 */
export async function expireHeartbeat(writer: ResourceWriter, ctx: WriteContext, keep: Keep, access: AlertAccess, id: string): Promise<string> {
  const heartbeat = await writer.load(ctx.manager, ctx.organizationId, id, true);
  const { attributes, dropped } = await expiryAlertOf(ctx, heartbeat);
  const { alert } = await createAlert(alertWriter, ctx, keep, access, attributes);
  const expiredAt = heartbeat.expires_at instanceof Date ? heartbeat.expires_at.toISOString() : String(heartbeat.expires_at);
  const left = dropped.length ? `; left out: ${dropped.join('; ')}` : '';
  await recordAlertEvent(ctx, access, alert.id, 'informational', 'created', `Heartbeat ${String(heartbeat.name)} expired: no ping since it was due at ${expiredAt}${left}`, keep);
  await ctx.manager.query('UPDATE heartbeats SET alert_id = $1 WHERE id = $2 AND organization_id = $3', [alert.id, heartbeat.id, ctx.organizationId]);
  keep(await writer.update(ctx, String(heartbeat.id), { status: 'expired' }));
  return alert.id;
}
