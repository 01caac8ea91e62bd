import { pagingTargetsOf } from '@taproot/catalog';
import { JsonApiError } from '@taproot/json-api';
import type { Row, WriteContext } from '@taproot/resources';
import { checkAlertReferences } from '../../alerts/notification-targets';
import { AlertingErrorCode } from '../../errors';
import type { PagingTargetType } from '../paging-targets';

/** `POST /v1/pages`: each single-target attribute and the notification target type it pages. */
export const PAGE_TARGETS: Record<string, PagingTargetType> = {
  escalation_policy_id: 'EscalationPolicy',
  group_id: 'Group',
  service_id: 'Service',
  functionality_id: 'Functionality',
  user_id: 'User',
};

/**
 * One target of a page and where the client sent its id: `at` the pointer under /data/attributes
 * (`notification_targets/1/id`, or a single-target attribute: `functionality_id`), `name` as a detail names it.
 */
export interface PageTarget {
  target: { type: PagingTargetType; id: string };
  at: string;
  name: string;
}

/** The page's targets: the listed `notification_targets`, then one per single-target attribute sent. */
export function pageTargetsOf(attributes: Row): PageTarget[] {
  const listed = ((attributes.notification_targets as PageTarget['target'][] | null | undefined) ?? []).map((target, i) => ({ target, at: `notification_targets/${i}/id`, name: `notification_targets[${i}].id` }));
  const named = Object.entries(PAGE_TARGETS)
    .filter(([attribute]) => attributes[attribute] != null)
    .map(([attribute, type]) => ({ target: { type, id: String(attributes[attribute]) }, at: attribute, name: attribute }));
  return [...listed, ...named];
}

/**
 * Every target must name a record of the organization, checked as an alert's
 * `notification_targets` are; a refusal names where the client sent the id (the alert's check
 * would name a place in the list for a single-target attribute too).
 */
export async function requirePageTargets(ctx: WriteContext, targets: readonly PageTarget[]): Promise<void> {
  const { issues } = await checkAlertReferences(ctx, { notification_targets: targets.map((t) => t.target) });
  if (issues.length === 0) return;
  throw JsonApiError.invalidAttributes(
    issues.map((issue) => {
      const sent = targets[Number(/^notification_targets\/(\d+)\/id$/.exec(issue.attribute)?.[1] ?? -1)];
      // The detail starts with the place it names (`notification_targets[3].id: ...`).
      return sent === undefined ? issue : { ...issue, attribute: sent.at, detail: issue.detail.replace(/^[^:]*:/, `${sent.name}:`) };
    }),
  );
}

/**
 * The functionalities the page names (spec: Functionality paging), by lower-cased id, with their
 * owning teams: each must have an escalation policy (one without is not pageable: 422 where it
 * was sent). They are known to exist (`requirePageTargets`).
 */
export async function pageableFunctionalities(ctx: WriteContext, targets: readonly PageTarget[]): Promise<Map<string, string[]>> {
  const named = targets.filter((t) => t.target.type === 'Functionality').map((t) => ({ ...t, id: t.target.id.toLowerCase() }));
  if (named.length === 0) return new Map();
  const found = await pagingTargetsOf(ctx.manager, ctx.organizationId, 'functionalities', named.map((t) => t.id));
  const unpageable = named.filter((t) => !found.get(t.id)?.escalationPolicyId);
  if (unpageable.length) {
    throw JsonApiError.invalidAttributes(
      unpageable.map((t) => ({ attribute: t.at, detail: `${t.name}: functionality ${t.id} has no escalation policy, so it cannot be paged`, code: AlertingErrorCode.InvalidValue })),
    );
  }
  return new Map(named.map((t) => [t.id, found.get(t.id)!.owningTeamIds]));
}
