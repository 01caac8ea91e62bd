import { defineResource, JsonApiError } from '@taproot/json-api';
import type { ResourceDefinition, Row } from '@taproot/resources';
import { recordsOfASet, ROLE_ADMINISTRATION } from './in-a-set';
import { SEVERITY_PARAMS, severityParamsRules } from './severity-params';

/**
 * The records a permission set resource may name, by `resource_type` (the hosted API's record
 * types), and the `kind` each answers: the reference's kind enum, one type per kind.
 */
export const KIND_OF_RESOURCE_TYPE = {
  Severity: 'severities',
  IncidentType: 'incident_types',
  Status: 'statuses',
  SubStatus: 'sub_statuses',
} as const;
type ResourceType = keyof typeof KIND_OF_RESOURCE_TYPE;
const RESOURCE_TYPES = Object.keys(KIND_OF_RESOURCE_TYPE) as ResourceType[];
export const PERMISSION_SET_RESOURCE_KINDS = RESOURCE_TYPES.map((type) => KIND_OF_RESOURCE_TYPE[type]);
const RESOURCE_TYPE_OF_KIND = Object.fromEntries(RESOURCE_TYPES.map((type) => [KIND_OF_RESOURCE_TYPE[type], type])) as Record<string, ResourceType>;

/**
 * A record an incident permission set grants (docs/incident-permission-sets.md): a severity,
 * incident type, status or sub-status (`resource_type`, `resource_id`), on private or public
 * incidents. Created and listed under its set, read, changed and deleted at
 * `/v1/incident_permission_set_resources/{id}`. The spec makes `kind` and
 * `incident_permission_set_id` output-only and `severity_params` input-only.
 */
export const incidentPermissionSetResourceSchema = defineResource({
  ...recordsOfASet('incident_permission_set_resources', 'incident_permission_set_resource', 'resources'),
  attributes: {
    incident_permission_set_id: { type: 'string', format: 'uuid', writable: false, description: 'The incident permission set the resource belongs to (output-only: the path names it)' },
    // Output-only (spec), yet taken as the reference's clients send it (its new_ requires it): checked
    // against its enum, it stands in for a create's missing resource_type; else ignored (rules below).
    kind: {
      type: 'string',
      enum: PERMISSION_SET_RESOURCE_KINDS,
      filter: true,
      sortable: true,
      description: `The kind of resource_type (${RESOURCE_TYPES.map((t) => `${t}: ${KIND_OF_RESOURCE_TYPE[t]}`).join(', ')}). Output-only: a create without resource_type takes the type of the kind sent; otherwise a sent kind is ignored`,
    },
    private: { type: 'boolean', default: false, filter: true, description: 'Whether it applies to private incidents (else public ones)' },
    // Optional as in the reference: a resource without one stands for every record of its kind.
    resource_id: { type: 'string', format: 'uuid', nullable: true, filter: true, description: 'The id of the severity, incident type, status or sub-status; null for all of its kind' },
    resource_type: { type: 'string', enum: RESOURCE_TYPES, filter: true, description: 'The type of the record resource_id names; decides kind. Required on create unless kind is sent' },
  },
  inputOnlyAttributes: { severity_params: SEVERITY_PARAMS },
});

/** The attributes with `kind` the one of their resource_type (a sent kind never decides). */
function withKind(attributes: Row, resourceType: unknown): Row {
  const { kind: _sent, ...rest } = attributes;
  return resourceType === undefined ? rest : { ...rest, kind: KIND_OF_RESOURCE_TYPE[resourceType as ResourceType] };
}

/** A create's resource_type: the one sent, else the type of the reference's kind; one of them is required. */
function createdType(attributes: Row): Row {
  const type = attributes.resource_type ?? RESOURCE_TYPE_OF_KIND[String(attributes.kind)];
  if (type === undefined) {
    throw JsonApiError.invalidAttributes([{ attribute: 'resource_type', detail: `resource_type is required (one of ${RESOURCE_TYPES.join(', ')}), or the reference's kind`, code: 'REQUIRED_ATTRIBUTE' }]);
  }
  return withKind({ ...attributes, resource_type: type }, type);
}

export const incidentPermissionSetResourceDefinition: ResourceDefinition = {
  schema: incidentPermissionSetResourceSchema,
  context: 'identity',
  table: 'incident_permission_set_resources',
  permission: ROLE_ADMINISTRATION,
  rules: severityParamsRules({
    create: createdType,
    update: (_current, changes) => withKind(changes, changes.resource_type),
  }),
};
