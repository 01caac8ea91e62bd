import type { AttributeDef } from '@taproot/json-api';

/** A name and the slug derived from it, as the reference's named workflow records carry them. */
export const named = (noun: string): Record<string, AttributeDef> => ({
  name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: `The name of the ${noun}` },
  slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: `The slug of the ${noun}` },
});

/** A list's order: assigned (last) on create when omitted, so reads never see null. */
export const position = (noun: string): AttributeDef => ({ type: 'integer', nullable: true, alwaysStored: true, minimum: 0, filter: true, sortable: true, description: `The position of the ${noun}` });

/** A list of ids or values, stored as given; empty when not sent. */
export const strings = (description: string): AttributeDef => ({ type: 'array', items: { type: 'string' }, default: [], description });
