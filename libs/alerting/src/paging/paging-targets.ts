import type { Row } from '@taproot/resources';
import { NOTIFICATION_TARGET_TYPES } from '../alerts/alert.schema';

export type PagingTargetType = (typeof NOTIFICATION_TARGET_TYPES)[number];

/** Whom an alert pages: an escalation policy, a user, a team (`Group`), a service or a functionality. */
export interface PagingTarget {
  type: PagingTargetType;
  id: string;
}

/**
 * The alert's paging targets: `notification_targets` when it has any (it takes precedence, as the
 * alert schema says), else the `notification_target_type`/`_id` pair; each once.
 */
export function alertTargetsOf(alert: Row): PagingTarget[] {
  const listed = Array.isArray(alert.notification_targets) ? (alert.notification_targets as Row[]) : [];
  const pairs = listed.length > 0 ? listed.map((t) => ({ type: t?.type, id: t?.id })) : [{ type: alert.notification_target_type, id: alert.notification_target_id }];
  const targets = new Map<string, PagingTarget>();
  for (const { type, id } of pairs) {
    if (typeof type !== 'string' || id == null || !(NOTIFICATION_TARGET_TYPES as readonly string[]).includes(type)) continue;
    const target = { type: type as PagingTargetType, id: String(id).toLowerCase() };
    targets.set(`${target.type}:${target.id}`, target);
  }
  return [...targets.values()];
}

/** The targets of `after` that `before` did not page, and those it no longer pages: an ownership transfer. */
export function reassignment(before: Row, after: Row): { added: PagingTarget[]; removed: PagingTarget[] } {
  const key = (t: PagingTarget) => `${t.type}:${t.id}`;
  const [was, is] = [alertTargetsOf(before), alertTargetsOf(after)];
  const wasKeys = new Set(was.map(key));
  const isKeys = new Set(is.map(key));
  return { added: is.filter((t) => !wasKeys.has(key(t))), removed: was.filter((t) => !isKeys.has(key(t))) };
}
