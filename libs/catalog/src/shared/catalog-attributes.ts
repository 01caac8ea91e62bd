import type { AttributeDef } from '@taproot/json-api';

/** How a catalog record is managed (provenance), as the reference enumerates it. */
export const MANAGED_BY = ['web', 'admin_web', 'api', 'terraform', 'pulumi', 'backstage', 'catalog_sync'] as const;

export const text = (description: string, extra: Partial<AttributeDef> = {}): AttributeDef => ({
  type: 'string',
  nullable: true,
  description,
  ...extra,
});

export const ids = (description: string, itemType: 'string' | 'integer' = 'string'): AttributeDef => ({
  type: 'array',
  nullable: true,
  items: { type: itemType },
  description,
});

/**
 * What every named, ordered catalog list declares, described for `noun` ("service"): the name
 * and its derived slug, the descriptions `filter[search]` matches, and the list's `position`
 * (assigned on create when omitted, so reads never see null).
 */
export const namedAndOrdered = (noun: string): Record<string, AttributeDef> => ({
  name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: `The name of the ${noun}` },
  slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: `The slug of the ${noun}` },
  description: text(`The description of the ${noun}`, { searchable: true }),
  public_description: text(`The public description of the ${noun}`, { searchable: true }),
  position: { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, filter: true, sortable: true, description: `Position of the ${noun}` },
});

export const managedBy = (noun: string): AttributeDef => ({
  type: 'string',
  enum: MANAGED_BY,
  writable: false,
  default: 'api',
  description: `How this ${noun} is managed (provenance). Read-only.`,
});

/** Values of catalog properties set on a record; `extra` for resources whose list is never null. */
export const catalogProperties = (noun: string, extra: Partial<AttributeDef> = {}): AttributeDef => ({
  type: 'array',
  nullable: true,
  description: `Array of property values for this ${noun}.`,
  items: {
    type: 'object',
    properties: {
      catalog_property_id: { type: 'string', required: true, description: 'Catalog property ID' },
      value: { type: 'string', required: true, description: 'The property value' },
    },
  },
  ...extra,
});

/** Ids of the record in the tools it is synced with or paged through (services, functionalities). */
export const linkedToolIds = (noun: string): Record<string, AttributeDef> => ({
  backstage_id: text(`The Backstage entity id associated to this ${noun}`, { filter: true }),
  cortex_id: text(`The Cortex group id associated to this ${noun}`, { filter: true }),
  opslevel_id: text(`The OpsLevel entity id associated to this ${noun}`, { filter: true }),
  pagerduty_id: text(`The PagerDuty service id associated to this ${noun}`),
  opsgenie_id: text(`The Opsgenie service id associated to this ${noun}`),
  service_now_ci_sys_id: text(`The Service Now CI sys id associated to this ${noun}`),
});

export const owners = (noun: string): Record<string, AttributeDef> => ({
  owner_group_ids: ids(`Owner Teams associated with this ${noun}`),
  owner_user_ids: ids(`Owner Users associated with this ${noun}`, 'integer'),
});

/** The reference accepts these on create only. */
export const uptime: Record<string, AttributeDef> = {
  show_uptime: { type: 'boolean', nullable: true, writable: 'create', description: 'Show uptime' },
  show_uptime_last_days: { type: 'integer', nullable: true, enum: [30, 60, 90], default: 60, writable: 'create', description: 'Show uptime over x days' },
};
