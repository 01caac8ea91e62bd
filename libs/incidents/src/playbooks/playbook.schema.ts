import { catalogRecordsOf, existingCatalogIds, type CatalogType } from '@taproot/catalog';
import { existingTeamIds, teamRecords } from '@taproot/identity';
import { byIdAttribute, defineIncludes, defineResource, type AttributeDef, type RelationshipDef } from '@taproot/json-api';
import type { Reference, ResourceDefinition } from '@taproot/resources';
import { IncidentsErrorCode } from '../errors';
import { EQUALITY, referencesChecked } from '../forms/form-rules';
import { playbookTaskDefinition } from './playbook-task.schema';

/** The records a playbook names, by attribute: the catalog's kinds and teams (`groups`). */
const CATALOG: Record<string, { type: CatalogType; noun: string }> = {
  severity_ids: { type: 'severities', noun: 'severity' },
  environment_ids: { type: 'environments', noun: 'environment' },
  functionality_ids: { type: 'functionalities', noun: 'functionality' },
  service_ids: { type: 'services', noun: 'service' },
  incident_type_ids: { type: 'incident_types', noun: 'incident type' },
};
const REFERENCES: Record<string, Reference> = {
  ...Object.fromEntries(
    Object.entries(CATALOG).map(([attribute, { type, noun }]) => [attribute, { noun, code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingCatalogIds(db, org, type, ids) } satisfies Reference]),
  ),
  group_ids: { noun: 'team', code: IncidentsErrorCode.UnknownReference, existing: existingTeamIds },
};

const ids = (what: string): AttributeDef => ({ type: 'array', items: { type: 'string' }, nullable: true, default: [], filter: EQUALITY, description: `The ${what} IDs to attach to the incident` });

/**
 * A playbook (docs/playbooks.md): a titled guide for incidents of some severities, environments,
 * functionalities, services, teams and incident types, with its tasks (`/v1/playbooks/{playbook_id}/playbook_tasks`),
 * which go with it.
 */
export const playbookSchema = defineResource({
  type: 'playbooks',
  singular: 'playbook',
  path: '/v1/playbooks',
  readTable: 'playbooks_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  attributes: {
    title: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The title of the playbook' },
    summary: { type: 'string', nullable: true, searchable: true, description: 'The summary of the playbook' },
    external_url: { type: 'string', nullable: true, description: 'The external url of the playbook' },
    severity_ids: ids('Severity'),
    environment_ids: ids('Environment'),
    functionality_ids: ids('Functionality'),
    service_ids: ids('Service'),
    group_ids: ids('Team'),
    incident_type_ids: ids('Incident Type'),
  },
  relationships: {
    severities: { type: 'severities', many: true, idAttribute: 'severity_ids' },
    environments: { type: 'environments', many: true, idAttribute: 'environment_ids' },
    services: { type: 'services', many: true, idAttribute: 'service_ids' },
    functionalities: { type: 'functionalities', many: true, idAttribute: 'functionality_ids' },
    groups: { type: 'groups', many: true, idAttribute: 'group_ids' },
    // The reference's include names causes, but its playbook names none: always empty.
    causes: { type: 'causes', many: true, absent: true },
    incident_types: { type: 'incident_types', many: true, idAttribute: 'incident_type_ids' },
  } satisfies Record<string, RelationshipDef>,
});

export const playbookDefinition: ResourceDefinition = {
  schema: playbookSchema,
  context: 'incidents',
  table: 'playbooks',
  permission: { family: 'playbooks' },
  includes: defineIncludes(playbookSchema, {
    ...Object.fromEntries(Object.entries(CATALOG).map(([attribute, { type }]) => [type, byIdAttribute(attribute, catalogRecordsOf(type))])),
    groups: byIdAttribute('group_ids', teamRecords),
  }),
  children: () => [playbookTaskDefinition],
  rules: referencesChecked(REFERENCES),
};
