import type { Row, WriteContext } from '@taproot/resources';
import { findRetriggerRule, type RetriggerRule } from './retrigger-rules';

/**
 * The re-trigger rule that makes a repeat of an acknowledged alert page again (docs/alert-retrigger-rules.md),
 * or null: the repeat folds into the alert silently, as without rules. `current` is the stored alert,
 * `repeat` the attributes of the alert that fired again; the timeout counts from the alert's last
 * acknowledgement (its timeline's `acknowledged` line).
 */
export async function retriggerRuleForRepeat(ctx: WriteContext, current: Row, repeat: Row): Promise<(RetriggerRule & { name: string }) | null> {
  if (current.status !== 'acknowledged') return null;
  const rules = (await ctx.manager.query('SELECT id::text, name, match_mode, timeout_minutes, position, conditions FROM alert_retrigger_rules WHERE organization_id = $1 ORDER BY position, created_at, id', [
    ctx.organizationId,
  ])) as (RetriggerRule & { name: string })[];
  if (rules.length === 0) return null;
  const [{ at }] = (await ctx.manager.query("SELECT max(created_at) AS at FROM alert_events WHERE organization_id = $1 AND alert_id = $2 AND action = 'acknowledged'", [
    ctx.organizationId,
    current.id,
  ])) as { at: Date | null }[];
  const values = new Map(((repeat.alert_field_values ?? current.alert_field_values ?? []) as Row[]).map((v) => [String(v.alert_field_id), v.value]));
  const attributes = { ...current, ...repeat };
  const rule = findRetriggerRule(
    rules,
    {
      alertSourceId: attributes.alert_source_id == null ? '' : String(attributes.alert_source_id),
      attributes,
      urgencyId: attributes.alert_urgency_id == null ? null : String(attributes.alert_urgency_id),
      payload: attributes.data ?? {},
      fieldValues: (id) => (values.has(id) ? [values.get(id)] : []),
    },
    at ?? new Date(current.updated_at as string),
    ctx.now,
  );
  return (rule as (RetriggerRule & { name: string }) | null) ?? null;
}
