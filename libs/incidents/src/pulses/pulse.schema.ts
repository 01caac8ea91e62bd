import { catalogRecordsOf } from '@taproot/catalog';
import { byIdAttribute, defineIncludes, defineResource, type AttributeDef, type FilterOperator, type RelationshipDef } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { EQUALITY } from '../forms/form-rules';
import { PULSE_RULES } from './pulse-rules';

const RANGE: readonly FilterOperator[] = ['gt', 'gte', 'lt', 'lte'];
const text = (description: string, more: Partial<AttributeDef> = {}): AttributeDef => ({ type: 'string', nullable: true, description, ...more });
const ids = (noun: string): AttributeDef => ({
  type: 'array',
  items: { type: 'string' },
  nullable: true,
  default: [],
  description: `The ${noun} IDs to attach to the pulse; each may be given by its slug, and is stored as the ID it names`,
});
// The items' members are checked by the rules (checkKeyValuePairs), as alerts' labels are.
const pairs = (noun: string): AttributeDef => ({ type: 'array', items: { type: 'object' }, nullable: true, default: [], description: `The ${noun} of the pulse: {key, value} pairs of strings` });
const embedded = (noun: string, path: string): AttributeDef => ({
  type: 'array',
  items: { type: 'object' },
  writable: false,
  description: `${noun} attached to the pulse, each as GET ${path}/{id} answers it, with its id`,
});

const RESOURCE = {
  type: 'pulses',
  singular: 'pulse',
  path: '/v1/pulses',
  readTable: 'pulses_read',
  // Newest first: pulses are not in the spec's list of lists that became ascending.
  defaultSort: '-created_at',
  cursor: true,
  // No delete: the hosted API declares none.
  operations: ['list', 'create', 'get', 'update'],
} as const;

/** What a pulse stores: its write table, read model and the snapshot its events start from. */
const STORED = {
  source: text('The source of the pulse (eg: k8s)', { filter: EQUALITY }),
  summary: { type: 'string', required: true, minLength: 1, maxLength: 255, description: 'The summary of the pulse' },
  service_ids: ids('Service'),
  environment_ids: ids('Environment'),
  started_at: { type: 'date-time', nullable: true, alwaysStored: true, filter: RANGE, sortable: true, description: 'Pulse start datetime; the creation time when not given' },
  ended_at: { type: 'date-time', nullable: true, filter: RANGE, description: 'Pulse end datetime' },
  external_url: text('The external url of the pulse'),
  labels: pairs('labels'),
  refs: pairs('refs'),
  data: { type: 'object', nullable: true, description: 'Additional data' },
} satisfies Record<string, AttributeDef>;

const RELATIONSHIPS = {
  services: { type: 'services', many: true, idAttribute: 'service_ids' },
  environments: { type: 'environments', many: true, idAttribute: 'environment_ids' },
} satisfies Record<string, RelationshipDef>;

/** The write table, read model and the generic writer and projection's declaration. */
export const pulseStorageSchema = defineResource({ ...RESOURCE, attributes: STORED });

/**
 * A pulse as the API answers it (the hosted API's `pulse`, docs/pulses.md): what it stores plus
 * the services and environments it names, embedded when read (pulse-presenter.ts). Request
 * bodies, the OpenAPI document and the events' payload contract read it.
 */
export const pulseSchema = defineResource({
  ...RESOURCE,
  attributes: { ...STORED, services: embedded('Services', '/v1/services'), environments: embedded('Environments', '/v1/environments') },
  relationships: RELATIONSHIPS,
});

/** A list filter on records the pulse names or on its pairs; rewritten into overlaps of the stored lists (pulses.controller.ts). */
const byRecord = (description: string): AttributeDef => ({ type: 'string', virtual: true, filter: EQUALITY, description });

/**
 * The list's query declaration: the stored attributes, the hosted API's filters on services,
 * environments, labels and refs (virtual) and the read model's generated `label_pairs` and
 * `ref_pairs`; its rows are answered as the stored pulse.
 */
export const pulseListSchema = defineResource({
  ...RESOURCE,
  relationships: RELATIONSHIPS,
  attributes: {
    ...STORED,
    services: byRecord('Service IDs or slugs, comma-separated'),
    environments: byRecord('Environment IDs or slugs, comma-separated'),
    labels: byRecord('Labels as key:value, comma-separated, e.g. version:v2'),
    refs: byRecord('Refs as key:value, comma-separated, e.g. sha:9f2c1e0'),
    label_pairs: { type: 'array', items: { type: 'string' }, writable: false },
    ref_pairs: { type: 'array', items: { type: 'string' }, writable: false },
    // The stored pairs, selected under other names (`labels` and `refs` are the filters here).
    label_object: { type: 'array', items: { type: 'object' }, writable: false, column: 'labels' },
    ref_object: { type: 'array', items: { type: 'object' }, writable: false, column: 'refs' },
  },
});

/** Where `include` finds the records, through the catalog's port, one query per type for a page. */
export const PULSE_INCLUDES = defineIncludes(pulseSchema, {
  services: byIdAttribute('service_ids', catalogRecordsOf('services')),
  environments: byIdAttribute('environment_ids', catalogRecordsOf('environments')),
});

export const pulseDefinition: ResourceDefinition = {
  schema: pulseStorageSchema,
  context: 'incidents',
  table: 'pulses',
  permission: { family: 'pulses' },
  includes: PULSE_INCLUDES,
  rules: PULSE_RULES,
};
