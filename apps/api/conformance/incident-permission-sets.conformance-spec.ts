import { randomUUID } from 'node:crypto';
import { describeReferenceConformance, NAMED, STRICTER } from './support/reference-conformance';

/**
 * Incident permission sets, their booleans and resources against the REFERENCE document
 * (docs/incident-permission-sets.md).
 */

describeReferenceConformance({
  type: 'incident_permission_sets',
  path: '/v1/incident_permission_sets',
  singular: 'incident_permission_set',
  knownStricter: NAMED,
});

/** A set made from a reference-valid `new_incident_permission_set`: each organization's parent. */
const underSet = (segment: string) => ({
  singular: 'incident_permission_set',
  path: '/v1/incident_permission_sets',
  collection: `/v1/incident_permission_sets/{incident_permission_set_id}/${segment}`,
  attribute: 'incident_permission_set_id',
});

/** The path names the set; the reference's body takes it too, and what severity_params keeps. */
const SEVERITY_PARAMS = (variant: 'create' | 'update') =>
  variant === 'create' ? { fully_enabled: false, create_enabled: true, applies_to_unassigned: false, severity_ids: [randomUUID()] } : { fully_enabled: true, create_enabled: false, applies_to_unassigned: true, severity_ids: [] };

/** The reference's severity_ids are strings; Taproot's are severity ids (uuids). */
const SEVERITY_IDS_STRICTER = { 'severity_params={...,extra_member}': "severity_ids are severity ids (uuids); the generated sample's are not" };

describeReferenceConformance({
  type: 'incident_permission_set_booleans',
  path: '/v1/incident_permission_set_booleans',
  singular: 'incident_permission_set_boolean',
  parent: underSet('booleans'),
  pick: (name, _schema, variant) => (name === 'severity_params' ? SEVERITY_PARAMS(variant) : undefined),
  knownStricter: {
    ...STRICTER('incident_permission_set_id', 'the path names the set; a different one in the body is refused (PARENT_MISMATCH)'),
    ...SEVERITY_IDS_STRICTER,
  },
});

/** The kind of each resource_type (docs/incident-permission-sets.md). */
const KIND_OF: Record<string, string> = { Severity: 'severities', IncidentType: 'incident_types', Status: 'statuses', SubStatus: 'sub_statuses' };

describeReferenceConformance({
  type: 'incident_permission_set_resources',
  path: '/v1/incident_permission_set_resources',
  singular: 'incident_permission_set_resource',
  parent: underSet('resources'),
  pick: (name, _schema, variant) => {
    if (name === 'severity_params') return SEVERITY_PARAMS(variant);
    if (name === 'resource_type') return variant === 'create' ? 'Status' : 'SubStatus';
    return name === 'resource_id' ? randomUUID() : undefined;
  },
  // The spec makes kind output-only, the one of resource_type: a document naming both sends them alike.
  companions: (name, value) => (name === 'resource_type' ? { kind: KIND_OF[String(value)] } : undefined),
  outputOnly: { incident_permission_set_id: 'the spec makes it output-only: the path names the set' },
  validationGaps: { resource_id: { when: 'null', why: "a resource created with the reference's kind alone names no record: it stands for every record of that kind" } },
  knownStricter: {
    ...STRICTER('resource_type', 'one of Severity, IncidentType, Status, SubStatus: it decides kind'),
    ...STRICTER('resource_id', 'the id (uuid) of the severity, incident type, status or sub-status'),
    ...SEVERITY_IDS_STRICTER,
  },
});
