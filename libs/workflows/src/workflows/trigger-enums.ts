// The enums and member types of the reference's trigger params (incident, action_item, alert, pulse, simple), generated from its document,
// and of the hosted API's newer post_mortem variant (its own swagger, which its Terraform provider's workflow_post_mortem sends).
// Nested members (alert_field_conditions, alert_payload_conditions) are checked as objects and stored as given.
export const CONDITIONS = ['IS', 'IS NOT', 'ANY', 'CONTAINS', 'CONTAINS_ALL', 'CONTAINS_NONE', 'NONE', 'SET', 'UNSET'] as const;
export const LOGIC = ['ALL', 'ANY', 'NONE'] as const;
const SET_UNSET = ['SET', 'UNSET'] as const;
const CONDITIONAL_INACTIVITY = ['IS'] as const;
const KINDS = ['test', 'test_sub', 'example', 'example_sub', 'normal', 'normal_sub', 'backfilled', 'scheduled', 'scheduled_sub'] as const;
const STATUSES = ['in_triage', 'started', 'detected', 'acknowledged', 'mitigated', 'resolved', 'closed', 'cancelled', 'scheduled', 'in_progress', 'completed'] as const;
const POST_MORTEM_STATUSES = ['draft', 'published'] as const;
const ACTION_ITEM_KINDS = ['task', 'follow_up'] as const;
const ACTION_ITEM_PRIORITIES = ['high', 'medium', 'low'] as const;
const ACTION_ITEM_STATUSES = ['open', 'in_progress', 'cancelled', 'done'] as const;
const ALERT_TRIGGERS = ['alert_created', 'alert_status_updated'] as const;
const PULSE_TRIGGERS = ['pulse_created'] as const;
const SIMPLE_TRIGGERS = ['slack_command'] as const;

/** A member whose values the reference enumerates: one of `values` (each item's, for an array), or null where nullable. */
export interface EnumMember {
  values: readonly (string | boolean)[];
  nullable?: boolean;
  array?: boolean;
}

/** The incident's conditions, which incident and action item triggers share. */
const INCIDENT_CONDITIONS: Readonly<Record<string, EnumMember>> = {
  incident_condition: { values: LOGIC },
  incident_condition_acknowledged_at: { values: SET_UNSET, nullable: true },
  incident_condition_detected_at: { values: SET_UNSET, nullable: true },
  incident_condition_environment: { values: CONDITIONS },
  incident_condition_functionality: { values: CONDITIONS },
  incident_condition_group: { values: CONDITIONS },
  incident_condition_incident_roles: { values: CONDITIONS },
  incident_condition_incident_type: { values: CONDITIONS },
  incident_condition_kind: { values: CONDITIONS },
  incident_condition_label: { values: CONDITIONS },
  incident_condition_mitigated_at: { values: SET_UNSET, nullable: true },
  incident_condition_resolved_at: { values: SET_UNSET, nullable: true },
  incident_condition_service: { values: CONDITIONS },
  incident_condition_severity: { values: CONDITIONS },
  incident_condition_started_at: { values: SET_UNSET, nullable: true },
  incident_condition_status: { values: CONDITIONS },
  incident_condition_sub_status: { values: CONDITIONS },
  incident_condition_summary: { values: SET_UNSET, nullable: true },
  incident_condition_visibility: { values: CONDITIONS },
  incident_conditional_inactivity: { values: CONDITIONAL_INACTIVITY, nullable: true },
  incident_kinds: { values: KINDS, array: true },
  incident_statuses: { values: STATUSES, array: true },
};

const INCIDENT_ENUMS: Readonly<Record<string, EnumMember>> = {
  ...INCIDENT_CONDITIONS,
  incident_condition_cause: { values: CONDITIONS },
  incident_post_mortem_condition_cause: { values: CONDITIONS },
};

/** Each trigger type's enumerated members. */
export const TRIGGER_ENUMS: Readonly<Record<string, Readonly<Record<string, EnumMember>>>> = {
  incident: INCIDENT_ENUMS,
  post_mortem: {
    ...INCIDENT_ENUMS,
    incident_post_mortem_condition: { values: LOGIC },
    incident_post_mortem_condition_status: { values: CONDITIONS },
    incident_post_mortem_statuses: { values: POST_MORTEM_STATUSES, array: true },
  },
  action_item: {
    ...INCIDENT_CONDITIONS,
    incident_action_item_condition: { values: LOGIC },
    incident_action_item_condition_group: { values: CONDITIONS },
    incident_action_item_condition_kind: { values: CONDITIONS },
    incident_action_item_condition_priority: { values: CONDITIONS },
    incident_action_item_condition_status: { values: CONDITIONS },
    incident_action_item_kinds: { values: ACTION_ITEM_KINDS, array: true },
    incident_action_item_priorities: { values: ACTION_ITEM_PRIORITIES, array: true },
    incident_action_item_statuses: { values: ACTION_ITEM_STATUSES, array: true },
  },
  alert: {
    alert_condition: { values: LOGIC },
    alert_condition_label: { values: CONDITIONS },
    alert_condition_payload: { values: CONDITIONS },
    alert_condition_source: { values: CONDITIONS },
    alert_condition_status: { values: CONDITIONS },
    alert_condition_urgency: { values: CONDITIONS },
    triggers: { values: ALERT_TRIGGERS, array: true },
  },
  pulse: {
    pulse_condition: { values: LOGIC },
    pulse_condition_label: { values: CONDITIONS },
    pulse_condition_payload: { values: CONDITIONS },
    pulse_condition_source: { values: CONDITIONS },
    triggers: { values: PULSE_TRIGGERS, array: true },
  },
  simple: {
    triggers: { values: SIMPLE_TRIGGERS, array: true },
  },
};

/** A member the reference types without enumerating its values: a JSON type, or a list of it. */
export interface TypedMember {
  type: 'string' | 'boolean' | 'object';
  array?: boolean;
  nullable?: boolean;
}

const FLAG: TypedMember = { type: 'boolean' };
const TEXT: TypedMember = { type: 'string', nullable: true };
const TEXTS: TypedMember = { type: 'string', array: true };

/** The incident's typed members, which incident and action item triggers share. */
const INCIDENT_TYPED: Readonly<Record<string, TypedMember>> = {
  incident_condition_label_use_regexp: FLAG,
  incident_inactivity_duration: TEXT,
  incident_labels: TEXTS,
  incident_visibilities: { type: 'boolean', array: true },
  triggers: TEXTS,
};

/** Each trigger type's typed members (those `TRIGGER_ENUMS` does not enumerate). */
export const TRIGGER_TYPED: Readonly<Record<string, Readonly<Record<string, TypedMember>>>> = {
  incident: INCIDENT_TYPED,
  post_mortem: INCIDENT_TYPED,
  action_item: { ...INCIDENT_TYPED, incident_action_item_group_ids: TEXTS },
  alert: {
    alert_condition_label_use_regexp: FLAG,
    alert_condition_payload_use_regexp: FLAG,
    alert_condition_source_use_regexp: FLAG,
    alert_condition_status_use_regexp: FLAG,
    alert_field_conditions: { type: 'object', array: true },
    alert_labels: TEXTS,
    alert_payload: TEXTS,
    alert_payload_conditions: { type: 'object' },
    alert_query_payload: TEXT,
    alert_sources: TEXTS,
    alert_statuses: TEXTS,
    alert_urgency_ids: TEXTS,
  },
  pulse: {
    pulse_condition_label_use_regexp: FLAG,
    pulse_condition_payload_use_regexp: FLAG,
    pulse_condition_source_use_regexp: FLAG,
    pulse_labels: TEXTS,
    pulse_payload: TEXTS,
    pulse_query_payload: TEXT,
    pulse_sources: TEXTS,
  },
  simple: {},
};
