import type { PagingTargetType } from '../paging-targets';

/** `POST /v1/pages`: each single-target attribute and the notification target type it pages. */
export const PAGE_TARGETS: Record<string, PagingTargetType> = {
  escalation_policy_id: 'EscalationPolicy',
  group_id: 'Group',
  service_id: 'Service',
  functionality_id: 'Functionality',
  user_id: 'User',
};
