import { defineResource } from '@taproot/json-api';
import { NOTIFICATION_TARGET_TYPES } from '../../alerts/alert.schema';

const target = (what: string) => ({ type: 'string' as const, nullable: true, description: `The ${what} to page` });

/**
 * The body of `POST /v1/pages` (the reference does not show it; docs/paging.md): what the alert
 * says and whom it pages, by one attribute per kind of target or several through
 * `notification_targets`. Only declared for parsing and the OpenAPI document: a page is an alert.
 */
export const pageSchema = defineResource({
  type: 'pages',
  singular: 'new_page',
  path: '/v1/pages',
  readTable: 'alerts_read',
  defaultSort: 'created_at',
  operations: [],
  attributes: {
    summary: { type: 'string', required: true, minLength: 1, maxLength: 10000, description: "The page's alert summary" },
    description: { type: 'string', nullable: true, maxLength: 10000, description: "The page's alert description" },
    alert_urgency_id: { type: 'string', nullable: true, format: 'uuid', description: 'The urgency of the alert' },
    escalation_policy_id: target('escalation policy'),
    group_id: target('team (its escalation policy, or its members)'),
    service_id: target('service (its escalation policy, or its owning teams)'),
    functionality_id: target('functionality (only one with an escalation policy)'),
    user_id: { ...target('user'), integerAsText: true, description: 'The user to page (its id, as text or a number)' },
    notification_targets: {
      type: 'array',
      nullable: true,
      items: { type: 'object', properties: { type: { type: 'string', enum: NOTIFICATION_TARGET_TYPES, required: true }, id: { type: 'string', required: true, integerAsText: true } } },
      description: 'Several targets to page at once',
    },
  },
});
