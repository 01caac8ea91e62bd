import { documentContent, errorsResponse, resourceListDocument } from '@taproot/json-api';

const query = (name: string, schema: Record<string, unknown>, description: string) => ({ in: 'query', name, required: false, schema, description });
const linkage = (type: string) => ({ type: 'object', properties: { data: { type: 'object', nullable: true, properties: { id: { type: 'string' }, type: { type: 'string', enum: [type] } } } } });
const nullableString = (description: string) => ({ type: 'string', nullable: true, description });

/** `GET /v1/oncalls` (reference: listOncalls) and its documents, in the reference's names. */
export const ONCALLS_OPENAPI = {
  schemas: {
    oncall: {
      type: 'object',
      properties: {
        escalation_policy_id: { type: 'string', description: 'ID of the escalation policy' },
        escalation_policy_name: { type: 'string', description: 'Name of the escalation policy' },
        escalation_policy_path_id: nullableString('ID of the escalation policy path'),
        escalation_policy_path_name: nullableString('Name of the escalation policy path'),
        is_default_path: { type: 'boolean', nullable: true, description: 'Whether this is the default escalation path' },
        notification_type: { type: 'string', enum: ['audible', 'quiet'], nullable: true, description: 'Notification type of the escalation path' },
        escalation_level: { type: 'integer', description: 'Level within the escalation policy' },
        schedule_id: nullableString('ID of the schedule'),
        schedule_name: nullableString('Name of the schedule'),
        user_id: { type: 'integer', description: 'ID of the on-call user' },
        starts_at: { type: 'string', format: 'date-time', description: 'Start of the on-call shift (the window for a user or team target)' },
        ends_at: { type: 'string', format: 'date-time', description: 'End of the on-call shift (the window for a user or team target)' },
      },
      required: ['escalation_policy_id', 'escalation_policy_name', 'user_id', 'starts_at', 'ends_at'],
    },
    oncall_list: resourceListDocument('on_call_resources', 'oncall', {
      relationships: { type: 'object', properties: { user: linkage('users'), schedule: linkage('schedules'), escalation_policy: linkage('escalation_policies') } },
      included: { type: 'array', items: { type: 'object' } },
    }),
  },
  paths: {
    '/v1/oncalls': {
      get: {
        operationId: 'listOncalls',
        summary: 'Who is on call for each escalation policy, path and level',
        tags: ['Oncalls'],
        parameters: [
          query('include', { type: 'string', enum: ['user', 'schedule', 'escalation_policy'] }, 'Comma-separated: user, schedule, escalation_policy'),
          query('since', { type: 'string' }, 'Start of the window (ISO 8601); default now'),
          query('until', { type: 'string' }, 'End of the window (ISO 8601); default since; at most 366 days after it'),
          query('earliest', { type: 'boolean' }, 'Only who is on call first at each level'),
          query('time_zone', { type: 'string' }, 'An IANA time zone name (or a Rails name): starts_at and ends_at are written with its offset (default UTC)'),
          ...['escalation_policy_ids', 'schedule_ids', 'user_ids', 'service_ids', 'group_ids', 'notification_types'].map((name) =>
            query(`filter[${name}]`, { type: 'string' }, `Comma-separated ${name.replace(/_/g, ' ')}`),
          ),
        ],
        responses: {
          '200': { description: 'success', ...documentContent('oncall_list') },
          '400': errorsResponse('a bad since, until, time_zone, include or filter'),
          '401': errorsResponse('unauthorized'),
          '403': errorsResponse('the caller may not read escalation policies'),
        },
      },
    },
  },
};
