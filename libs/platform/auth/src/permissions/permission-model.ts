/**
 * The permission vocabulary: resource families, the actions on them, and the permission fields
 * of incident response roles (`roles`) and on-call roles (`on_call_roles`) with the values each
 * field accepts. The role declarations read their attributes from here, so a field and its
 * allowed values are written down once (docs/permissions.md).
 */

/** The actions a route checks: list/get read, POST creates, PUT updates, DELETE deletes. */
export const CRUD_ACTIONS = ['create', 'read', 'update', 'delete'] as const;
export type CrudAction = (typeof CRUD_ACTIONS)[number];
/** `send` exists on one field only (`incident_communication_permissions`). */
export type PermissionAction = CrudAction | 'send';

const CRUD = CRUD_ACTIONS;

/**
 * Incident response role fields and their allowed values, as the reference's `role` schema
 * lists them.
 */
export const ROLE_PERMISSION_FIELDS = {
  alerts_permissions: ['create', 'read'],
  api_keys_permissions: CRUD,
  audits_permissions: CRUD,
  billing_permissions: CRUD,
  catalogs_permissions: CRUD,
  communication_permissions: CRUD,
  edge_connector_permissions: CRUD,
  environments_permissions: CRUD,
  form_fields_permissions: CRUD,
  functionalities_permissions: CRUD,
  groups_permissions: CRUD,
  incident_causes_permissions: CRUD,
  incident_communication_permissions: ['create', 'read', 'update', 'delete', 'send'],
  incident_feedbacks_permissions: CRUD,
  incident_roles_permissions: CRUD,
  incident_types_permissions: CRUD,
  incidents_permissions: CRUD,
  integrations_permissions: CRUD,
  invitations_permissions: CRUD,
  paging_permissions: CRUD,
  playbooks_permissions: CRUD,
  private_incidents_permissions: CRUD,
  pulses_permissions: ['create', 'update', 'read'],
  retrospective_permissions: CRUD,
  roles_permissions: CRUD,
  secrets_permissions: CRUD,
  services_permissions: CRUD,
  severities_permissions: CRUD,
  slas_permissions: CRUD,
  status_pages_permissions: CRUD,
  sub_statuses_permissions: CRUD,
  webhooks_permissions: CRUD,
  workflows_permissions: CRUD,
} as const satisfies Record<string, readonly PermissionAction[]>;

/**
 * On-call role fields. The spec's table wins where it lists a field (`alert_sources` without
 * `read`, `alerts` without `delete`, `contacts` read only, `schedule_override` create/update);
 * the fields it leaves open take the reference's enum (`catalogs`, `functionalities` and the
 * reference-only ones), and `members`, which the reference lacks, takes read/update/delete: the
 * hosted API's own SDK (rootly 3.0.1, tools/sdk) refuses any other value.
 */
export const ON_CALL_ROLE_PERMISSION_FIELDS = {
  alert_fields_permissions: CRUD,
  alert_groups_permissions: CRUD,
  alert_routing_rules_permissions: CRUD,
  alert_sources_permissions: ['create', 'update', 'delete'],
  alert_urgency_permissions: CRUD,
  alerts_permissions: ['create', 'update', 'read'],
  api_keys_permissions: CRUD,
  audits_permissions: CRUD,
  catalogs_permissions: CRUD,
  contacts_permissions: ['read'],
  escalation_policies_permissions: CRUD,
  functionalities_permissions: CRUD,
  groups_permissions: CRUD,
  heartbeats_permissions: CRUD,
  integrations_permissions: CRUD,
  invitations_permissions: CRUD,
  live_call_routing_permissions: CRUD,
  members_permissions: ['read', 'update', 'delete'],
  on_call_readiness_report_permissions: ['read'],
  on_call_roles_permissions: CRUD,
  schedule_override_permissions: ['create', 'update'],
  schedules_permissions: CRUD,
  services_permissions: CRUD,
  webhooks_permissions: CRUD,
  workflows_permissions: CRUD,
} as const satisfies Record<string, readonly PermissionAction[]>;

export type RolePermissionField = keyof typeof ROLE_PERMISSION_FIELDS;
export type OnCallRolePermissionField = keyof typeof ON_CALL_ROLE_PERMISSION_FIELDS;
export type PermissionFieldCatalog = Readonly<Record<string, readonly PermissionAction[]>>;

type FamilyOf<F> = F extends `${infer Family}_permissions` ? Family : never;

/** AI features: no role field carries them (see `rolePermissions`). */
export const AI_FAMILIES = ['ai_chat'] as const;

export type PermissionFamily =
  | FamilyOf<RolePermissionField>
  | FamilyOf<OnCallRolePermissionField>
  | (typeof AI_FAMILIES)[number];

export function familyOfField(field: string): string {
  return field.replace(/_permissions$/, '');
}

export function fieldOfFamily(family: string): string {
  return `${family}_permissions`;
}

/** Families an incident response role grants (`ir.all` covers them). */
export const INCIDENT_RESPONSE_FAMILIES = Object.keys(ROLE_PERMISSION_FIELDS).map(familyOfField) as PermissionFamily[];
/** Families an on-call role grants (`oc.all` covers them). */
export const ON_CALL_FAMILIES = Object.keys(ON_CALL_ROLE_PERMISSION_FIELDS).map(familyOfField) as PermissionFamily[];
export const PERMISSION_FAMILIES: readonly PermissionFamily[] = [
  ...new Set<PermissionFamily>([...INCIDENT_RESPONSE_FAMILIES, ...ON_CALL_FAMILIES, ...AI_FAMILIES]),
];

const FAMILY_SET = new Set<string>(PERMISSION_FAMILIES);
export function isPermissionFamily(value: string): value is PermissionFamily {
  return FAMILY_SET.has(value);
}

/** Kinds of incident response roles; `system_role` of a `roles` record (output-only). */
export const ROLE_KINDS = ['owner', 'admin', 'user', 'observer', 'no_access', 'custom'] as const;
export type RoleKind = (typeof ROLE_KINDS)[number];
/** Kinds of on-call roles, the reference's `system_role` enum. */
export const ON_CALL_ROLE_KINDS = ['admin', 'user', 'custom', 'observer', 'no_access'] as const;
export type OnCallRoleKind = (typeof ON_CALL_ROLE_KINDS)[number];

/** Spec, "On-call role": only roles of user or custom kind are editable (and deletable). */
export const EDITABLE_ROLE_KINDS: readonly string[] = ['user', 'custom'];
export function isEditableKind(kind: string): boolean {
  return EDITABLE_ROLE_KINDS.includes(kind);
}
