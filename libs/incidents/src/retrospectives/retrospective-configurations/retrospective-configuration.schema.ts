import { catalogRecordsOf } from '@taproot/catalog';
import { teamRecords } from '@taproot/identity';
import { byIdAttribute, defineIncludes, defineResource, type AttributeDef } from '@taproot/json-api';
import { checkReferenced, type ResourceDefinition } from '@taproot/resources';
import { CRITERIA } from '../retrospective-processes/retrospective-process.schema';

export const RETROSPECTIVE_CONFIGURATION_KINDS = ['skip', 'mandatory'] as const;

const ids = (description: string): AttributeDef => ({ type: 'array', items: { type: 'string', format: 'uuid' }, nullable: true, description });

/**
 * A retrospective configuration (docs/retrospectives.md): which incidents skip their retrospective
 * (`skip`) and which must have one (`mandatory`), by severity, team and incident type. Every
 * organization has exactly one of each kind, seeded with it (built-in-retrospective-configurations.ts):
 * listed, read and changed, never created nor deleted.
 */
export const retrospectiveConfigurationSchema = defineResource({
  type: 'retrospective_configurations',
  singular: 'retrospective_configuration',
  path: '/v1/retrospective_configurations',
  readTable: 'retrospective_configurations_read',
  defaultSort: 'created_at',
  operations: ['list', 'get', 'update'],
  // The reference's include enum, from the ids the configuration names.
  relationships: {
    severities: { type: 'severities', many: true, idAttribute: 'severity_ids' },
    groups: { type: 'groups', many: true, idAttribute: 'group_ids' },
    incident_types: { type: 'incident_types', many: true, idAttribute: 'incident_type_ids' },
  },
  attributes: {
    kind: { type: 'string', enum: RETROSPECTIVE_CONFIGURATION_KINDS, writable: false, alwaysStored: true, filter: ['eq', 'in'], description: 'The kind of the configuration.' },
    severity_ids: ids('The Severity IDs to attach to the retrospective configuration'),
    group_ids: ids('The Team IDs to attach to the retrospective configuration'),
    incident_type_ids: ids('The Incident Type IDs to attach to the retrospective configuration'),
  },
});

export const retrospectiveConfigurationDefinition: ResourceDefinition = {
  schema: retrospectiveConfigurationSchema,
  context: 'incidents',
  table: 'retrospective_configurations',
  permission: { family: 'retrospective' },
  includes: defineIncludes(retrospectiveConfigurationSchema, {
    severities: byIdAttribute('severity_ids', catalogRecordsOf('severities')),
    groups: byIdAttribute('group_ids', teamRecords),
    incident_types: byIdAttribute('incident_type_ids', catalogRecordsOf('incident_types')),
  }),
  // The ids name records of the organization, as a process' matching criteria do.
  rules: { beforeUpdate: (_current, changes, ctx) => checkReferenced(ctx, changes, CRITERIA) },
};
