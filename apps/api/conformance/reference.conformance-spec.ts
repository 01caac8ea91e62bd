import { beforeAll as before, describe, test } from '@jest/globals';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { TestApi, TestOrganization } from '../src/testing';
import { useApiWorld } from '../test/support/api-world';
import { unique as named } from '../test/support/json-api';
import { newStatusPage } from '../test/support/status-pages';
import { newWebhookEndpoint, seedDelivery } from '../test/support/webhook-deliveries';
import { REFERENCE_OPENAPI_PATH, referenceValidator, sampleFromSchema, validateAgainstReference, type JsonSchema } from '../test/support/openapi-ajv';
import {
  assertEchoed,
  assertStatus,
  CATALOG_KNOWN_STRICTER,
  DATE_TIME,
  describeReferenceConformance,
  INT4,
  INT4_BOUNDED,
  INT4_OVERFLOW,
  made,
  NAMED,
  REFERENCE,
  STRICTER,
  type Attributes,
} from './support/reference-conformance';

/** The reference conformance of the resources below (see support/reference-conformance.ts). */
test('the reference OpenAPI document is present beside the repository', () => {
  assert.ok(existsSync(REFERENCE_OPENAPI_PATH), `missing ${REFERENCE_OPENAPI_PATH}: the conformance suite needs ../shared/reference/openapi-v1.json beside the repository`);
  const ref = referenceValidator();
  for (const name of ['severity_response', 'severity_list', 'service_response', 'service_list', 'errors_list', 'new_service', 'update_service', 'new_severity', 'update_severity']) {
    assert.ok(ref.hasSchema(name), `the reference has no schema ${name}`);
  }
});

describeReferenceConformance({
  type: 'severities',
  path: '/v1/severities',
  singular: 'severity',
  assignedWhenNull: ['position'],
  knownStricter: CATALOG_KNOWN_STRICTER,
  mayRefuse: INT4_BOUNDED,
  pick: (name, _schema, variant) => {
    if (name === 'color') return variant === 'create' ? '#d92d20' : '#f79009';
    if (name === 'notify_emails') return [variant === 'create' ? 'sev@example.com' : 'sev-updated@example.com'];
    return undefined;
  },
});

describeReferenceConformance({
  type: 'services',
  path: '/v1/services',
  singular: 'service',
  cursor: true,
  assignedWhenNull: ['position'],
  knownStricter: CATALOG_KNOWN_STRICTER,
  mayRefuse: INT4_BOUNDED,
  pick: (name, _schema, variant) => {
    if (name === 'color') return variant === 'create' ? '#3366ff' : '#00aa55';
    if (name === 'notify_emails') return [variant === 'create' ? 'team@example.com' : 'team-updated@example.com'];
    if (name === 'owner_user_ids') return variant === 'create' ? [1, 2] : [3];
    return undefined;
  },
});

describeReferenceConformance({
  type: 'environments',
  path: '/v1/environments',
  singular: 'environment',
  assignedWhenNull: ['position'],
  knownStricter: CATALOG_KNOWN_STRICTER,
  mayRefuse: INT4_BOUNDED,
  pick: (name, _schema, variant) => {
    if (name === 'color') return variant === 'create' ? '#12b76a' : '#0ba5ec';
    if (name === 'notify_emails') return [variant === 'create' ? 'env@example.com' : 'env-updated@example.com'];
    return undefined;
  },
});

describeReferenceConformance({
  type: 'functionalities',
  path: '/v1/functionalities',
  singular: 'functionality',
  assignedWhenNull: ['position'],
  knownStricter: CATALOG_KNOWN_STRICTER,
  mayRefuse: INT4_BOUNDED,
  pick: (name, _schema, variant) => {
    if (name === 'color') return variant === 'create' ? '#7a5af8' : '#ee46bc';
    if (name === 'notify_emails') return [variant === 'create' ? 'fn@example.com' : 'fn-updated@example.com'];
    if (name === 'owner_user_ids') return variant === 'create' ? [1, 2] : [3];
    return undefined;
  },
});

describeReferenceConformance({
  type: 'causes',
  path: '/v1/causes',
  singular: 'cause',
  assignedWhenNull: ['position'],
  knownStricter: CATALOG_KNOWN_STRICTER,
  mayRefuse: INT4_BOUNDED,
});

describeReferenceConformance({
  type: 'incident_types',
  path: '/v1/incident_types',
  singular: 'incident_type',
  assignedWhenNull: ['position'],
  knownStricter: CATALOG_KNOWN_STRICTER,
  mayRefuse: INT4_BOUNDED,
  pick: (name, _schema, variant) => {
    if (name === 'color') return variant === 'create' ? '#f04438' : '#fdb022';
    if (name === 'notify_emails') return [variant === 'create' ? 'type@example.com' : 'type-updated@example.com'];
    return undefined;
  },
});

describeReferenceConformance({
  type: 'sub_statuses',
  path: '/v1/sub_statuses',
  singular: 'sub_status',
  assignedWhenNull: ['position'],
  knownStricter: CATALOG_KNOWN_STRICTER,
  mayRefuse: INT4_BOUNDED,
  responseEnumGaps: { 'parent_status=retrospective': 'new_sub_status accepts it; the reference sub_status response enum lists only started' },
});

describeReferenceConformance({ type: 'incident_roles', path: '/v1/incident_roles', singular: 'incident_role', assignedWhenNull: ['position'], knownStricter: CATALOG_KNOWN_STRICTER, mayRefuse: INT4_BOUNDED });

describeReferenceConformance({
  type: 'incident_role_tasks',
  path: '/v1/incident_role_tasks',
  singular: 'incident_role_task',
  parent: { singular: 'incident_role', path: '/v1/incident_roles', collection: '/v1/incident_roles/{incident_role_id}/incident_role_tasks', attribute: 'incident_role_id' },
  knownStricter: {
    'task=""': 'minLength 1: a task that says nothing is refused',
    'incident_role_id=""': 'the path names the role; a different one in the body is refused (PARENT_MISMATCH)',
    'incident_role_id=<10000 chars>': 'the path names the role; a different one in the body is refused (PARENT_MISMATCH)',
  },
});

const newIncident = (api: TestApi, org: TestOrganization) => made(api, org, '/v1/incidents', 'incidents');
/** The records under an incident: a reference-valid new_incident names records the organization does not have. */
const underIncident = (segment: string) => ({ singular: 'incident', path: '/v1/incidents', collection: `/v1/incidents/{incident_id}/${segment}`, attribute: 'incident_id', make: newIncident });
const underEvent = (segment: string) => ({
  singular: 'incident_event',
  path: '/v1/events',
  collection: `/v1/events/{incident_event_id}/${segment}`,
  attribute: 'incident_event_id',
  make: async (api: TestApi, org: TestOrganization) => made(api, org, `/v1/incidents/${await newIncident(api, org)}/events`, 'incident_events', { event: 'Checkout is down' }),
});
const NULL_BESIDE_ALL_OF = 'nullable beside an allOf of user_flat_response: Taproot answers null (no such user), which OpenAPI 3.0.3 does not let satisfy the allOf';
const USER_ID_PROBES = (attribute: string) =>
  Object.fromEntries(['-1', String(INT4_OVERFLOW), String(Number.MAX_SAFE_INTEGER)].map((value) => [`${attribute}=${value}`, 'must be a user of the organization']));

describeReferenceConformance({
  type: 'incident_action_items',
  path: '/v1/action_items',
  singular: 'incident_action_item',
  cursor: true,
  parent: underIncident('action_items'),
  references: async (api, org) => ({
    assigned_to_user_id: await api.addUser(org.organizationId, { roleKind: 'user' }),
    assigned_to_group_ids: [await made(api, org, '/v1/teams', 'groups', { name: named('Team') })],
  }),
  pick: (name, _schema, variant) => (name === 'due_date' ? `2026-06-${variant === 'create' ? '01' : '15'}T12:00:00.000Z` : undefined),
  validationGaps: { assigned_to: { when: 'null', why: NULL_BESIDE_ALL_OF }, created_by: { when: 'null', why: NULL_BESIDE_ALL_OF } },
  knownStricter: {
    'summary=""': 'minLength 1: an action item that says nothing is refused',
    ...DATE_TIME('due_date'),
    ...USER_ID_PROBES('assigned_to_user_id'),
  },
});

describeReferenceConformance({
  type: 'incident_sub_statuses',
  path: '/v1/incident_sub_statuses',
  singular: 'incident_sub_status',
  parent: underIncident('sub_statuses'),
  references: async (api, org) => ({
    sub_status_id: await made(api, org, '/v1/sub_statuses', 'sub_statuses', { name: named('Investigating'), parent_status: 'started' }),
    assigned_by_user_id: await api.addUser(org.organizationId, { roleKind: 'user' }),
  }),
  pick: (name, _schema, variant) => (name === 'assigned_at' ? `2026-03-0${variant === 'create' ? 1 : 2}T08:00:00.000Z` : undefined),
  knownStricter: { ...REFERENCE('sub_status_id', 'a sub-status'), ...DATE_TIME('assigned_at'), ...USER_ID_PROBES('assigned_by_user_id') },
});

/** Every Taproot record answers its timestamps; the reference's closed event link schemas list none. */
const TIMESTAMP_GAPS = Object.fromEntries(['created_at', 'updated_at'].map((name) => [name, { when: 'always' as const, why: 'not listed by the closed reference schema' }]));
const PARENT_IN_BODY = Object.fromEntries(['""', '<10000 chars>'].map((v) => [`incident_event_id=${v}`, 'the path names the event: a body naming anything else is refused']));

for (const [linked, plural] of [['service', 'services'], ['functionality', 'functionalities']]) {
  describeReferenceConformance({
    type: `incident_event_${plural}`,
    path: `/v1/incident_event_${plural}`,
    singular: `incident_event_${linked}`,
    parent: underEvent(plural),
    references: async (api, org) => ({ [`${linked}_id`]: await made(api, org, `/v1/${plural}`, plural, { name: named(linked) }) }),
    validationGaps: TIMESTAMP_GAPS,
    knownStricter: { ...PARENT_IN_BODY, ...REFERENCE(`${linked}_id`, `a ${linked}`) },
  });
}

describeReferenceConformance({
  type: 'incident_status_page_events',
  path: '/v1/status-page-events',
  singular: 'incident_status_page_event',
  cursor: true,
  parent: underIncident('status-page-events'),
  references: async (api, org) => ({ status_page_id: await made(api, org, '/v1/status-pages', 'status_pages', { title: named('Status') }) }),
  // The parent is an incident (not a maintenance): its statuses.
  pick: (name, _schema, variant) => (name === 'status' ? (variant === 'create' ? 'investigating' : 'identified') : undefined),
  refusedEnumValue: (name, value) =>
    name === 'status' && ['scheduled', 'in_progress', 'completed'].includes(String(value)) ? "a scheduled maintenance's status: the parent is an incident (422 naming status)" : undefined,
  // A null flag or start is the default on create (false, now) and keeps the stored value on update.
  assignedWhenNull: ['notify_subscribers', 'should_tweet', 'started_at'],
  validationGaps: { status_page_id: { when: 'null', why: 'an event posted to no status page (the reference requires none) answers null, which its response schema does not declare nullable' } },
  knownStricter: { 'event=""': 'minLength 1: an update that says nothing is refused', ...REFERENCE('status_page_id', 'a status page') },
});

describeReferenceConformance({
  type: 'alert_urgencies',
  path: '/v1/alert_urgencies',
  singular: 'alert_urgency',
  assignedWhenNull: ['position'],
  knownStricter: {
    ...CATALOG_KNOWN_STRICTER,
    [`position=${INT4_OVERFLOW}`]: 'maximum 2^31-1: an integer column',
    [`position=${Number.MAX_SAFE_INTEGER}`]: 'maximum 2^31-1: an integer column',
  },
});

describeReferenceConformance({ type: 'alert_fields', path: '/v1/alert_fields', singular: 'alert_field', knownStricter: CATALOG_KNOWN_STRICTER, createdOnly: 'filter[kind]=custom' });

describeReferenceConformance({
  type: 'alert_routing_rules',
  path: '/v1/alert_routing_rules',
  singular: 'alert_routing_rule',
  assignedWhenNull: ['position'],
  knownStricter: {
    ...CATALOG_KNOWN_STRICTER,
    ...INT4_BOUNDED,
    'destination={...,extra_member}': "the destination must name a record of the organization (the sample's random id names none)",
  },
  // The source and the destination must be records of the organization, a payload condition's name a JSON Path.
  references: async (api, org) => ({
    alerts_source_id: await made(api, org, '/v1/alert_sources', 'alert_sources', { name: named('Source') }),
    destination: { target_type: 'Service', target_id: await made(api, org, '/v1/services', 'services', { name: named('Service') }) },
    owning_team_ids: [await made(api, org, '/v1/teams', 'groups', { name: named('Team') })],
    conditions: [{ property_field_type: 'payload', property_field_name: '$.env', property_field_condition_type: 'is_one_of', property_field_values: ['prod'] }],
  }),
});

describeReferenceConformance({
  type: 'alert_routes',
  path: '/v1/alert_routes',
  singular: 'alert_route',
  knownStricter: {
    ...CATALOG_KNOWN_STRICTER,
    'rules=[{...,extra_member}]': "a rule's destinations and conditions must name records of the organization (the sample's random ids name none)",
  },
  // Every rule, condition group, condition and destination is answered with its id (docs/alert-routing.md, "Changing rules by id").
  addedMembers: { rules: ['id'] },
  // Rules must name records of the organization: a real source and service, a valid JSON Path.
  references: async (api, org) => {
    const source = await made(api, org, '/v1/alert_sources', 'alert_sources', { name: named('Source') });
    const service = await made(api, org, '/v1/services', 'services', { name: named('Service') });
    // Every member, as the API answers them all (the hosted API's SDK reads each).
    const condition = {
      property_field_type: 'payload',
      property_field_name: '$.service',
      property_field_condition_type: 'is_one_of',
      property_field_value: null,
      property_field_values: ['checkout'],
      alert_urgency_ids: null,
      conditionable_type: null,
      conditionable_id: null,
    };
    const team = await made(api, org, '/v1/teams', 'groups', { name: named('Team') });
    return { alerts_source_ids: [source], owning_team_ids: [team], rules: [{ name: 'Checkout', position: 1, fallback_rule: false, destinations: [{ target_type: 'Service', target_id: service }], condition_groups: [{ position: 1, conditions: [condition] }] }] };
  },
});

describeReferenceConformance({
  type: 'alert_groups',
  path: '/v1/alert_groups',
  singular: 'alert_group',
  updateVerb: 'PATCH',
  knownStricter: {
    ...CATALOG_KNOWN_STRICTER,
    'time_window=-1': 'minimum 1: a group open for no time groups nothing',
    [`time_window=${INT4_OVERFLOW}`]: 'integer column',
    [`time_window=${Number.MAX_SAFE_INTEGER}`]: 'integer column',
    'attributes=[{...,extra_member}]': "json_path must be a JSON Path (the sample's text is none)",
    'conditions=[{...,extra_member}]': "a condition's urgencies and alert field must be records of the organization (the sample's ids name none)",
    'targets=[{...,extra_member}]': "a target must name a record of the organization (the sample's random id names none)",
  },
  outputOnly: {
    condition_type: 'the spec makes it output-only: it reports how the conditions combine (all)',
  },
  integerBooleans: ['group_by_alert_title', 'group_by_alert_urgency'],
  addedMembers: { conditions: ['values'] },
  // Targets and owners must be records of the organization, a payload condition's name a JSON Path (docs/alert-groups.md).
  references: async (api, org) => {
    const team = await made(api, org, '/v1/teams', 'groups', { name: named('Team') });
    return {
      targets: [{ target_type: 'Group', target_id: team }],
      owner_group_ids: [team],
      conditions: [{ property_field_type: 'payload', property_field_name: '$.host', property_field_condition_type: 'matches_existing_alert' }],
      attributes: [{ json_path: '$.service' }],
    };
  },
});

const newSchedule = (api: TestApi, org: TestOrganization) => made(api, org, '/v1/schedules', 'schedules', { name: named('Schedule') });
const underSchedule = (segment: string) => ({ singular: 'schedule', path: '/v1/schedules', collection: `/v1/schedules/{schedule_id}/${segment}`, attribute: 'schedule_id', make: newSchedule });
const underRotation = (segment: string) => ({
  singular: 'schedule_rotation',
  path: '/v1/schedule_rotations',
  collection: `/v1/schedule_rotations/{schedule_rotation_id}/${segment}`,
  attribute: 'schedule_rotation_id',
  make: async (api: TestApi, org: TestOrganization) =>
    made(api, org, `/v1/schedules/${await newSchedule(api, org)}/schedule_rotations`, 'schedule_rotations', {
      name: named('Rotation'),
      schedule_rotationable_type: 'ScheduleDailyRotation',
      schedule_rotationable_attributes: { handoff_time: '09:00' },
    }),
});
const aUser = async (api: TestApi, org: TestOrganization) => api.addUser(org.organizationId, { roleKind: 'user' });
/** Spans end after they start; answers are in UTC with milliseconds. */
const span = (starts: string, ends: string) => (name: string, _schema: JsonSchema, variant: 'create' | 'update') =>
  ({ [starts]: variant === 'create' ? '2026-12-01T09:00:00.000Z' : '2026-12-02T09:00:00.000Z', [ends]: variant === 'create' ? '2026-12-01T17:00:00.000Z' : '2026-12-02T17:00:00.000Z' })[name];

describeReferenceConformance({
  type: 'schedules',
  path: '/v1/schedules',
  singular: 'schedule',
  cursor: true,
  references: async (api, org) => ({ owner_user_id: await aUser(api, org), owner_group_ids: [await made(api, org, '/v1/teams', 'groups', { name: named('Team') })] }),
  pick: (name, _schema, variant) => {
    if (name === 'shift_report_time_of_day') return variant === 'create' ? '09:00' : '17:30';
    if (name === 'shift_report_time_zone') return variant === 'create' ? 'Europe/Paris' : 'America/New_York';
    return undefined;
  },
  // The reference answers these settings with a value, never null: null stores the default (false without a Slack channel).
  // A null owner keeps the stored one (a schedule always has an owner).
  assignedWhenNull: [
    'owner_user_id',
    'include_shadows_in_slack_notifications',
    'shift_report_enabled',
    'shift_start_notifications_enabled',
    'shift_update_notifications_enabled',
    'sync_linear_enabled',
    'shift_report_day_of_week',
    'shift_report_time_of_day',
    'shift_report_time_zone',
  ],
  knownStricter: {
    ...NAMED,
    ...USER_ID_PROBES('owner_user_id'),
    ...STRICTER('shift_report_time_of_day', 'a time of day, HH:MM (the reference describes it so)'),
    ...STRICTER('shift_report_time_zone', 'an IANA time zone name (the reference describes it so) or a Rails one'),
  },
});

const ROTATIONABLE: Record<string, Attributes> = {
  ScheduleDailyRotation: { handoff_time: '09:30:00Z' },
  ScheduleWeeklyRotation: { handoff_time: '09:30:00Z', handoff_day: 'M' },
  ScheduleBiweeklyRotation: { handoff_time: '09:30:00Z', handoff_day: 'F' },
  ScheduleMonthlyRotation: { handoff_time: '09:30:00Z', handoff_day: 'first_day_of_month' },
  ScheduleCustomRotation: { handoff_time: '09:30:00Z', shift_length: 12, shift_length_unit: 'hours' },
};

describeReferenceConformance({
  type: 'schedule_rotations',
  path: '/v1/schedule_rotations',
  singular: 'schedule_rotation',
  parent: underSchedule('schedule_rotations'),
  assignedWhenNull: ['position'],
  pick: (name, schema, variant) => {
    if (name === 'time_zone') return variant === 'create' ? 'Europe/Paris' : 'Asia/Tokyo';
    if (name === 'active_time_type') return variant === 'create' ? 'same_time' : 'custom';
    return span('start_time', 'end_time')(name, schema, variant);
  },
  // The reference's oneOf cannot say which shape goes with which type.
  companions: (name, value) => (name === 'schedule_rotationable_type' ? { schedule_rotationable_attributes: ROTATIONABLE[value as string] } : undefined),
  knownStricter: {
    ...NAMED,
    ...STRICTER('time_zone', 'an IANA time zone name (the reference describes it so) or a Rails one'),
    ...STRICTER('active_time_type', "one of all_day, same_time, custom (the reference's enum sits in an items keyword a string ignores)"),
    'position=-1': 'minimum 0',
    ...INT4('position'),
  },
});

describeReferenceConformance({
  type: 'schedule_rotation_users',
  path: '/v1/schedule_rotation_users',
  singular: 'schedule_rotation_user',
  parent: underRotation('schedule_rotation_users'),
  assignedWhenNull: ['position'],
  references: async (api, org) => ({ user_id: await aUser(api, org) }),
  knownStricter: { ...USER_ID_PROBES('user_id'), 'position=-1': 'minimum 0', ...INT4('position') },
});

describeReferenceConformance({
  type: 'schedule_rotation_active_days',
  path: '/v1/schedule_rotation_active_days',
  singular: 'schedule_rotation_active_day',
  parent: underRotation('schedule_rotation_active_days'),
});

describeReferenceConformance({
  type: 'shifts',
  path: '/v1/override_shifts',
  singular: 'override_shift',
  parent: underSchedule('override_shifts'),
  references: async (api, org) => ({ user_id: await aUser(api, org) }),
  pick: span('starts_at', 'ends_at'),
  knownStricter: USER_ID_PROBES('user_id'),
});

describeReferenceConformance({
  type: 'on_call_shadows',
  path: '/v1/on_call_shadows',
  singular: 'on_call_shadow',
  parent: underSchedule('on_call_shadows'),
  listSchema: 'on_call_shadows_list',
  references: async (api, org) => ({ shadow_user_id: await aUser(api, org), shadowed_schedule: await newSchedule(api, org) }),
  pick: span('starts_at', 'ends_at'),
  // shadowable_id names the user or schedule its type says.
  companions: (name, value, references) =>
    name === 'shadowable_type' ? { shadowable_id: value === 'User' ? String(references.shadow_user_id) : references.shadowed_schedule } : undefined,
  knownStricter: { ...USER_ID_PROBES('shadow_user_id'), ...STRICTER('shadowable_id', 'must name a user or schedule of the organization') },
});

describeReferenceConformance({
  type: 'escalation_policies',
  path: '/v1/escalation_policies',
  singular: 'escalation_policy',
  references: async (api, org) => ({
    group_ids: [await made(api, org, '/v1/teams', 'groups', { name: named('Team') })],
    service_ids: [await made(api, org, '/v1/services', 'services', { name: named('Service') })],
  }),
  // Business hours are times of day (the reference's examples say HH:MM) in a zone of its enum.
  pick: (name, _schema, variant) =>
    name === 'business_hours' ? { days: ['M', 'F'], start_time: variant === 'create' ? '09:00' : '08:30', end_time: '17:00', time_zone: variant === 'create' ? 'Europe/Paris' : 'America/New_York' } : undefined,
  knownStricter: {
    ...NAMED,
    'repeat_count=-1': 'minimum 0',
    ...INT4('repeat_count'),
    'business_hours={...,extra_member}': 'its sample times are not HH:MM: business hours are times of day',
  },
});

const newPolicy = (api: TestApi, org: TestOrganization) => made(api, org, '/v1/escalation_policies', 'escalation_policies', { name: named('Policy') });

describeReferenceConformance({
  type: 'escalation_paths',
  path: '/v1/escalation_paths',
  singular: 'escalation_policy_path',
  parent: { singular: 'escalation_policy', path: '/v1/escalation_policies', collection: '/v1/escalation_policies/{escalation_policy_id}/escalation_paths', attribute: 'escalation_policy_id', make: newPolicy },
  assignedWhenNull: ['position', 'default'],
  // Restrictions are HH:MM (the reference describes them so) in a zone of its enum; a deferral path says what follows it.
  pick: (name, _schema, variant) => {
    if (name === 'time_restrictions') return [{ start_day: 'monday', start_time: variant === 'create' ? '09:00' : '08:00', end_day: 'friday', end_time: '17:00' }];
    if (name === 'time_restriction_time_zone') return variant === 'create' ? 'Europe/Paris' : 'Asia/Tokyo';
    // The update's rule items are nullable beside a oneOf, which a null cannot satisfy (the generator's null would be invalid).
    if (name === 'rules' && variant === 'update') return [{ rule_type: 'working_hour', within_working_hour: true }];
    return undefined;
  },
  companions: (name, value) => (name === 'path_type' && value === 'deferral' ? { after_deferral_behavior: 're_evaluate' } : undefined),
  createOnly: ['path_type'],
  knownStricter: {
    ...NAMED,
    'initial_delay=-1': 'minimum 0',
    'initial_delay=2147483648': 'maximum 10080 (the reference describes it so: a week)',
    'initial_delay=9007199254740991': 'maximum 10080 (the reference describes it so: a week)',
    'position=-1': 'minimum 0',
    ...INT4('position'),
    'repeat_count=-1': 'minimum 0',
    ...INT4('repeat_count'),
    'time_restrictions=[{...,extra_member}]': 'its sample times are not HH:MM: restrictions are times of day',
  },
});

/** Users' contact methods: a user of the organization's (its id in the path), contact methods named once per user. */
const someUser = async (api: TestApi, org: TestOrganization) => String(await aUser(api, org));
const underUser = (segment: string, make: (api: TestApi, org: TestOrganization) => Promise<string> = someUser) => ({
  singular: 'user',
  path: '/v1/users',
  collection: `/v1/users/{user_id}/${segment}`,
  attribute: 'user_id',
  make,
});
const anEmail = () => `${randomUUID().slice(0, 8)}@example.test`;
const anE164 = () => `+1415${String(Math.floor(Math.random() * 10_000_000)).padStart(7, '0')}`;
const FORMATTED = (attribute: string, format: string) => ({ [`${attribute}=""`]: format, [`${attribute}=<10000 chars>`]: format });

describeReferenceConformance({
  type: 'user_email_addresses',
  path: '/v1/email_addresses',
  singular: 'user_email_address',
  parent: underUser('email_addresses'),
  pick: (name) => (name === 'email' ? anEmail() : undefined),
  knownStricter: FORMATTED('email', 'an e-mail address (the reference says string)'),
});

describeReferenceConformance({
  type: 'user_phone_numbers',
  path: '/v1/phone_numbers',
  singular: 'user_phone_number',
  parent: underUser('phone_numbers'),
  pick: (name) => (name === 'phone' ? anE164() : undefined),
  knownStricter: FORMATTED('phone', 'E.164 (the reference: "in international format")'),
});

/** A rule names contact methods of its own user: each organization's user, made with one address and one number. */
const ruleOwners = new Map<string, string>();
describeReferenceConformance({
  type: 'user_notification_rules',
  path: '/v1/notification_rules',
  singular: 'user_notification_rule',
  references: async (api, org) => {
    const user = await someUser(api, org);
    ruleOwners.set(org.organizationId, user);
    const phone = await made(api, org, `/v1/users/${user}/phone_numbers`, 'user_phone_numbers', { phone: anE164() });
    return {
      user_email_address_id: await made(api, org, `/v1/users/${user}/email_addresses`, 'user_email_addresses', { email: anEmail() }),
      user_call_number_id: phone,
      user_sms_number_id: phone,
      user_device_id: null,
    };
  },
  parent: underUser('notification_rules', async (_api, org) => ruleOwners.get(org.organizationId)!),
  assignedWhenNull: ['position'],
  knownStricter: {
    'delay=-1': 'a delay is minutes from now: at least 0',
    ...Object.fromEntries(['user_email_address_id', 'user_call_number_id', 'user_sms_number_id'].flatMap((a) => Object.keys(FORMATTED(a, '')).map((probe) => [probe, 'must name a contact method of the same user (a uuid)']))),
    ...FORMATTED('user_device_id', 'user devices are not served: none can be named'),
  },
  mayRefuse: { ...INT4_BOUNDED, [`delay=${INT4_OVERFLOW}`]: 'integer column', [`delay=${Number.MAX_SAFE_INTEGER}`]: 'integer column' },
});

describeReferenceConformance({
  type: 'escalation_levels',
  path: '/v1/escalation_levels',
  singular: 'escalation_policy_level',
  parent: { singular: 'escalation_policy', path: '/v1/escalation_policies', collection: '/v1/escalation_policies/{escalation_policy_id}/escalation_levels', attribute: 'escalation_policy_id', make: newPolicy },
  // Targets name records of the organization; the path is a path of the level's own policy (the generic parent is made per organization, so none here).
  references: async (api, org) => ({
    notification_target_params: [{ id: await made(api, org, '/v1/teams', 'groups', { name: named('Team') }), type: 'team', team_members: 'all' }, { id: 'C06Q2JK7RQW', type: 'slack_channel' }],
    escalation_policy_path_id: null,
  }),
  assignedWhenNull: ['position', 'paging_strategy_configuration_strategy', 'paging_strategy_configuration_schedule_strategy'],
  knownStricter: {
    'position=-1': 'minimum 0',
    ...INT4('position'),
    'delay=-1': 'minimum 0',
    ...INT4('delay'),
    ...STRICTER('escalation_policy_path_id', 'must name a path of the policy'),
    'notification_target_params=[{...,extra_member}]': 'its sample id names no team of the organization',
  },
});

/** A notification target of each reference type, per organization (a heartbeat's target must name a record of it). */
const HEARTBEAT_TARGETS = 'heartbeat_targets';
describeReferenceConformance({
  type: 'heartbeats',
  path: '/v1/heartbeats',
  singular: 'heartbeat',
  references: async (api, org) => {
    const team = await made(api, org, '/v1/teams', 'groups', { name: named('Team') });
    const targets = {
      User: String(await aUser(api, org)),
      Group: team,
      Service: await made(api, org, '/v1/services', 'services', { name: named('Service') }),
      EscalationPolicy: await made(api, org, '/v1/escalation_policies', 'escalation_policies', { name: named('Policy') }),
      Functionality: await made(api, org, '/v1/functionalities', 'functionalities', { name: named('Functionality') }),
    };
    const urgency = await made(api, org, '/v1/alert_urgencies', 'alert_urgencies', { name: named('Urgency'), description: 'heartbeats' });
    return { owner_group_ids: [team], alert_urgency_id: urgency, [HEARTBEAT_TARGETS]: targets };
  },
  // The id goes with its type: each type names its own record.
  companions: (name, value, references) => (name === 'notification_target_type' ? { notification_target_id: (references[HEARTBEAT_TARGETS] as Record<string, string>)[value as string] } : undefined),
  knownStricter: {
    'name=""': 'minLength 1: a name is required and must not be empty',
    'name=<10000 chars>': 'maxLength 255',
    'alert_summary=""': "minLength 1: an alert's summary must not be empty",
    ...STRICTER('notification_target_id', 'must name a record of the organization of notification_target_type'),
    ...STRICTER('alert_urgency_id', 'must name an alert urgency of the organization'),
    'interval=-1': 'minimum 1: a ping is awaited for some time',
    'interval=0': 'minimum 1: a ping is awaited for some time',
    ...INT4('interval'),
  },
});

/** Outgoing webhooks (docs/webhooks.md): endpoints, the secrets their headers name, and deliveries. */
describeReferenceConformance({
  type: 'webhooks_endpoints',
  path: '/v1/webhooks/endpoints',
  singular: 'webhooks_endpoint',
  // A receiver's URL; header names are HTTP tokens (the sample's have spaces).
  pick: (name, _schema, variant) => {
    if (name === 'url') return `https://receiver.example.test/${variant}`;
    if (name === 'custom_headers') return [{ name: 'X-Team', value: variant === 'create' ? 'payments' : 'billing' }];
    return undefined;
  },
  knownStricter: {
    ...NAMED,
    ...STRICTER('url', 'an absolute http or https URL (the SSRF guard is at send time)'),
    'secret=""': 'minLength 1: an empty key signs nothing',
  },
});

const WRITE_ONLY = 'write-only: answered as ********';
const NO_VAULT = 'Taproot has no HashiCorp Vault connection: answered with its default, a sent value is ignored';
describeReferenceConformance({
  type: 'secrets',
  path: '/v1/secrets',
  singular: 'secret',
  // Names are identifiers ({{ secrets.NAME }}), unique in the organization.
  pick: (name, _schema, variant) => (name === 'name' ? `${variant}_${randomUUID().slice(0, 8)}` : undefined),
  refusedEnumValue: (name, value) => (name === 'kind' && value === 'hashicorp_vault' ? NO_VAULT : undefined),
  outputOnly: { secret: WRITE_ONLY, hashicorp_vault_mount: NO_VAULT, hashicorp_vault_path: NO_VAULT, hashicorp_vault_version: NO_VAULT },
  knownStricter: {
    'name=""': 'an identifier: letters, digits and _, not starting with a digit',
    'name=<10000 chars>': 'maxLength 255',
    'secret=""': 'minLength 1',
    'secret=<10000 chars>': 'maxLength 8192: it is sent in a header value',
  },
});

describe('webhooks_deliveries conform to the reference', () => {
  const w = useApiWorld();

  test('lists (under the endpoint and across endpoints), get and deliver answer webhooks_delivery_list and webhooks_delivery_response', async () => {
    const endpoint = (await newWebhookEndpoint(w)).id;
    // Deliveries are written by the dispatcher: seeded in each state it leaves them.
    const ids = [
      await seedDelivery(w.api, w.org.organizationId, endpoint, { status: 'delivered', delivered_at: new Date().toISOString(), response_status: 200, error: null }),
      await seedDelivery(w.api, w.org.organizationId, endpoint, { status: 'retrying' }),
      await seedDelivery(w.api, w.org.organizationId, endpoint, { status: 'failed', response_status: null, error: 'connection refused' }),
      await seedDelivery(w.api, w.org.organizationId, endpoint, { status: 'pending', attempts: 0, response_status: null, error: null }),
    ];
    const send = (method: string, path: string) => w.send(method, path);
    for (const path of [`/v1/webhooks/endpoints/${endpoint}/deliveries`, '/v1/webhooks/deliveries', '/v1/webhooks/deliveries?page[size]=2&filter[status]=pending']) {
      const list = await send('GET', path);
      assertStatus(list, 200, `GET ${path}`);
      validateAgainstReference('webhooks_delivery_list', list.body, `GET ${path} 200`);
    }
    for (const id of ids) {
      const one = await send('GET', `/v1/webhooks/deliveries/${id}`);
      assertStatus(one, 200, 'GET /v1/webhooks/deliveries/{id}');
      validateAgainstReference('webhooks_delivery_response', one.body, 'GET /v1/webhooks/deliveries/{id} 200');
    }
    const delivered = await send('POST', `/v1/webhooks/deliveries/${ids[2]}/deliver`);
    assertStatus(delivered, 200, 'POST /v1/webhooks/deliveries/{id}/deliver');
    validateAgainstReference('webhooks_delivery_response', delivered.body, 'POST /v1/webhooks/deliveries/{id}/deliver 200');
    const missing = await send('GET', `/v1/webhooks/deliveries/${randomUUID()}`);
    assertStatus(missing, 404, 'GET an unknown delivery');
    validateAgainstReference('errors_list', missing.body, 'GET /v1/webhooks/deliveries/{id} 404');
  });
});

/** Status pages (docs/status-pages.md). */
describeReferenceConformance({
  type: 'status_pages',
  path: '/v1/status-pages',
  singular: 'status_page',
  references: async (api, org) => ({
    service_ids: [await made(api, org, '/v1/services', 'services', { name: named('Service') })],
    functionality_ids: [await made(api, org, '/v1/functionalities', 'functionalities', { name: named('Functionality') })],
  }),
  // Realistic values where the reference's strings have a meaning: colors, a zone, a host name.
  pick: (name, _schema, variant) => {
    if (name === 'header_color') return variant === 'create' ? '#0061F2' : '#123';
    if (name === 'footer_color') return variant === 'create' ? '#1F2F41' : '#abc';
    if (name === 'time_zone') return variant === 'create' ? 'Europe/Paris' : 'America/New_York';
    if (name === 'external_domain_names') return [`${variant}-${randomUUID().slice(0, 8)}.example.test`];
    return undefined;
  },
  // Password authentication needs its password; the deprecated flag follows the method written with it.
  companions: (name, value) => {
    if (name !== 'authentication_method') return undefined;
    return { authentication_enabled: value !== null && value !== 'none', ...(value === 'password' ? { authentication_password: 'correct horse battery' } : {}) };
  },
  outputOnly: { authentication_password: WRITE_ONLY },
  // A null stores the default (docs/status-pages.md): answers never hold null there.
  assignedWhenNull: ['allow_search_engine_index', 'authentication_method', 'enabled', 'external_domain_names', 'footer_color', 'header_color', 'public', 'section_order', 'show_uptime', 'show_uptime_last_days', 'time_zone'],
  knownStricter: {
    'title=""': 'minLength 1: a page needs a title (its slug is derived from it)',
    'title=<10000 chars>': 'maxLength 255',
    ...STRICTER('header_color', 'a hex color, #rgb or #rrggbb'),
    ...STRICTER('footer_color', 'a hex color, #rgb or #rrggbb'),
    ...STRICTER('time_zone', "an IANA time zone name the runtime's zone database knows, or a Rails one"),
  },
});

/**
 * Status page templates: the reference declares the request body as the bare `status_page_template`
 * and serves none of /v1/templates/{id}; Taproot takes that template's attributes in a JSON:API
 * document (docs/status-pages.md). Its answers are checked here: create under a page, list, get,
 * update, delete, and the errors.
 */
describe('status_page_templates conform to the reference', () => {
  const w = useApiWorld();
  let page: string;
  before(async () => {
    page = (await newStatusPage(w)).id;
  });

  /** The reference template's writable attributes, a normal template's status. */
  const attributes = (variant: 'create' | 'update'): Attributes => {
    const ref = referenceValidator();
    const sample = sampleFromSchema(ref, ref.schema('status_page_template'), {
      pick: (pointer) => (pointer === '/update_status' ? (variant === 'create' ? 'investigating' : 'monitoring') : pointer === '/kind' ? 'normal' : undefined),
    }) as Attributes;
    const { created_at: _created, updated_at: _updated, status_page_id: _page, ...writable } = sample;
    return { ...writable, title: `${variant} ${randomUUID().slice(0, 8)}` };
  };

  test('create, list, get, update and delete answer status_page_template_response and status_page_template_list', async () => {
    const { send } = w;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const sent = attributes('create');
      const res = await send('POST', `/v1/status-pages/${page}/templates`, { data: { type: 'status_page_templates', attributes: sent } });
      assertStatus(res, 201, 'POST /v1/status-pages/{status_page_id}/templates');
      validateAgainstReference('status_page_template_response', res.body, 'POST /v1/status-pages/{status_page_id}/templates 201');
      assert.equal(res.body.data.attributes.status_page_id, page);
      ids.push(res.body.data.id);
    }
    const list = await send('GET', `/v1/status-pages/${page}/templates?page[size]=2`);
    assertStatus(list, 200, 'GET /v1/status-pages/{status_page_id}/templates');
    validateAgainstReference('status_page_template_list', list.body, 'GET /v1/status-pages/{status_page_id}/templates 200');
    assert.equal(list.body.meta.total_count, 3);
    const got = await send('GET', `/v1/templates/${ids[0]}`);
    assertStatus(got, 200, 'GET /v1/templates/{id}');
    validateAgainstReference('status_page_template_response', got.body, 'GET /v1/templates/{id} 200');
    const sent = attributes('update');
    const updated = await send('PUT', `/v1/templates/${ids[0]}`, { data: { type: 'status_page_templates', attributes: sent } });
    assertStatus(updated, 200, 'PUT /v1/templates/{id}');
    validateAgainstReference('status_page_template_response', updated.body, 'PUT /v1/templates/{id} 200');
    assertEchoed({ type: 'status_page_templates', path: '/v1/templates', singular: 'status_page_template' }, sent, updated.body.data.attributes, 'PUT /v1/templates/{id}');
    const deleted = await send('DELETE', `/v1/templates/${ids[0]}`);
    assertStatus(deleted, 200, 'DELETE /v1/templates/{id}');
    validateAgainstReference('status_page_template_response', deleted.body, 'DELETE /v1/templates/{id} 200');
    for (const [what, res, status] of [
      ['GET a deleted template', await send('GET', `/v1/templates/${ids[0]}`), 404],
      ['POST without title and body', await send('POST', `/v1/status-pages/${page}/templates`, { data: { type: 'status_page_templates', attributes: {} } }), 422],
      ['POST under an unknown page', await send('POST', `/v1/status-pages/${randomUUID()}/templates`, { data: { type: 'status_page_templates', attributes: attributes('create') } }), 404],
      ['GET the list without a token', await w.api.request('GET', `/v1/status-pages/${page}/templates`), 401],
    ] as const) {
      assertStatus(res, status, what);
      validateAgainstReference('errors_list', res.body, `${what} ${status}`);
    }
  });
});

describe('statuses conform to the reference', () => {
  const w = useApiWorld();

  test("the organization's built-in statuses: list (filtered, paged), get by id and slug answer status_list and status_response", async () => {
    const send = (path: string) => w.send('GET', path);
    const all = await send('/v1/statuses');
    assertStatus(all, 200, 'GET /v1/statuses');
    validateAgainstReference('status_list', all.body, 'GET /v1/statuses 200');
    assert.ok(all.body.data.length > 0, 'the built-in set');
    for (const path of ['/v1/statuses?page[number]=2&page[size]=2', '/v1/statuses?filter[enabled]=true&filter[slug]=operational', '/v1/statuses?filter[created_at][lt]=2000-01-01']) {
      const res = await send(path);
      assertStatus(res, 200, `GET ${path}`);
      validateAgainstReference('status_list', res.body, `GET ${path} 200`);
    }
    const [first] = all.body.data;
    for (const key of [first.id, first.attributes.slug]) {
      const one = await send(`/v1/statuses/${key}`);
      assertStatus(one, 200, 'GET /v1/statuses/{id}');
      validateAgainstReference('status_response', one.body, 'GET /v1/statuses/{id} 200');
    }
    const missing = await send(`/v1/statuses/${randomUUID()}`);
    assertStatus(missing, 404, 'GET an unknown status');
    validateAgainstReference('errors_list', missing.body, 'GET /v1/statuses/{id} 404');
  });
});

describeReferenceConformance({
  type: 'catalogs',
  path: '/v1/catalogs',
  singular: 'catalog',
  assignedWhenNull: ['position'],
  knownStricter: CATALOG_KNOWN_STRICTER,
  mayRefuse: INT4_BOUNDED,
});

const newCatalog = (api: TestApi, org: TestOrganization) => made(api, org, '/v1/catalogs', 'catalogs', { name: named('Catalog') });

describeReferenceConformance({
  type: 'catalog_properties',
  path: '/v1/catalog_properties',
  singular: 'catalog_property',
  parent: { singular: 'catalog', path: '/v1/catalogs', collection: '/v1/catalogs/{catalog_id}/properties', attribute: 'catalog_id', make: newCatalog },
  // A reference property's values are entities of a catalog of the organization.
  references: async (api, org) => ({ kind_catalog_id: await newCatalog(api, org) }),
  companions: (name, value, references) => (name === 'kind' && value === 'reference' ? { kind_catalog_id: references.kind_catalog_id } : undefined),
  pick: (name) => (name === 'catalog_type' ? 'catalog' : undefined),
  updateSchema: 'update_catalog_field',
  refusedEnumValue: (name, value) => (name === 'catalog_type' && value !== 'catalog' ? "a custom catalog's route makes properties of type catalog; the built-in catalogs' routes make the others" : undefined),
  createOnly: ['catalog_type'],
  assignedWhenNull: ['position'],
  responseEnumGaps: Object.fromEntries(
    ['boolean', 'service', 'functionality', 'environment', 'group', 'cause', 'incident_type', 'user'].map((kind) => [`kind=${kind}`, 'the reference takes this kind on create but its catalog_property lists text and reference only']),
  ),
  knownStricter: { ...CATALOG_KNOWN_STRICTER, 'kind_catalog_id=""': 'a catalog id (uuid)', 'kind_catalog_id=<10000 chars>': 'a catalog id (uuid)' },
  mayRefuse: INT4_BOUNDED,
});

describeReferenceConformance({
  type: 'catalog_entities',
  path: '/v1/catalog_entities',
  singular: 'catalog_entity',
  parent: { singular: 'catalog', path: '/v1/catalogs', collection: '/v1/catalogs/{catalog_id}/entities', attribute: 'catalog_id', make: newCatalog },
  // Values must be of the catalog's properties, which a generated document cannot name.
  pick: (name) => (name === 'properties' ? [] : undefined),
  assignedWhenNull: ['position'],
  knownStricter: { ...CATALOG_KNOWN_STRICTER, 'properties=[{...,extra_member}]': "a value names a property of the entity's catalog; the generated sample names none" },
  mayRefuse: INT4_BOUNDED,
});

/** Each organization's catalog whose property the generated values name, and whose entity they live under. */
const valueCatalogs = new WeakMap<TestOrganization, string>();

describeReferenceConformance({
  type: 'catalog_entity_properties',
  path: '/v1/catalog_entity_properties',
  singular: 'catalog_entity_property',
  references: async (api, org) => {
    const catalog = await newCatalog(api, org);
    valueCatalogs.set(org, catalog);
    return { catalog_field_id: await made(api, org, `/v1/catalogs/${catalog}/properties`, 'catalog_properties', { name: named('Field'), kind: 'text' }) };
  },
  parent: {
    singular: 'catalog_entity',
    path: '/v1/catalog_entities',
    collection: '/v1/catalog_entities/{catalog_entity_id}/properties',
    attribute: 'catalog_entity_id',
    make: (api, org) => made(api, org, `/v1/catalogs/${valueCatalogs.get(org)}/entities`, 'catalog_entities', { name: named('Entity') }),
  },
  createOnly: ['catalog_field_id'],
  knownStricter: Object.fromEntries(
    ['catalog_entity_id', 'catalog_field_id'].flatMap((name) => [`${name}=""`, `${name}=<10000 chars>`].map((probe) => [probe, 'an id (uuid)'])),
  ),
});
