import { randomUUID } from 'node:crypto';
import { existingCatalogIds, type CatalogType } from '@taproot/catalog';
import { existingTeamIds, existingUserIds } from '@taproot/identity';
import { defineResource, JsonApiError, type AttributeDef } from '@taproot/json-api';
import { checkReferenced, type Reference, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { IncidentsErrorCode } from '../errors';
import { COMMUNICATION_TYPES, communicationTypeId, named, servedAt } from './communications-attributes';

/** What a condition compares, and the records of each: the catalog's kinds and teams (`group`). */
const catalog = (noun: string, type: CatalogType): Reference => ({ noun, code: IncidentsErrorCode.UnknownReference, existing: (db, org, ids) => existingCatalogIds(db, org, type, ids) });
const PROPERTY_RECORDS = {
  service: catalog('service', 'services'),
  severity: catalog('severity', 'severities'),
  functionality: catalog('functionality', 'functionalities'),
  group: { noun: 'team', code: IncidentsErrorCode.UnknownReference, existing: existingTeamIds } satisfies Reference,
  incident_type: catalog('incident type', 'incident_types'),
} as const;
type PropertyType = keyof typeof PROPERTY_RECORDS;
const PROPERTY_TYPES = Object.keys(PROPERTY_RECORDS) as PropertyType[];
const USERS: Reference = { noun: 'user', code: IncidentsErrorCode.UnknownUser, existing: existingUserIds };

/** The hosted API's Terraform provider sends "" for every unset string of a block. */
const blank = (def: AttributeDef): AttributeDef => ({ ...def, nullable: true, blankAsUnset: true });
const idsOf = (what: string): AttributeDef => ({ type: 'array', items: { type: 'string' }, nullable: true, description: `Array of ${what} IDs` });
const flag = (description: string): AttributeDef => ({ type: 'boolean', default: false, alwaysStored: true, filter: ['eq'], description });

/**
 * A communications group (docs/communications.md): who receives a type's communications, by SMS
 * and/or e-mail: users of the organization, external people, Slack channels, and incidents'
 * conditions (services, severities, functionalities, teams, incident types) that bring it in.
 * Members and conditions are taken as the swagger sends them (`member_ids`, `*_ids`) and as the
 * Terraform provider does (`communication_group_members`, `properties`), and answered both ways.
 */
export const communicationsGroupSchema = defineResource({
  ...servedAt('groups'),
  defaultSort: 'name',
  attributes: {
    ...named('communications group'),
    communication_type_id: communicationTypeId('communications group'),
    is_private: flag('Whether the group is private'),
    condition_type: { type: 'string', enum: ['any', 'all'], default: 'any', alwaysStored: true, filter: ['eq'], description: 'Whether any or all of the conditions bring the group in' },
    sms_channel: flag('SMS channel enabled'),
    email_channel: flag('Email channel enabled'),
    member_ids: { type: 'array', items: { type: 'integer' }, nullable: true, description: 'Array of member user IDs (or send communication_group_members)' },
    communication_group_members: {
      type: 'array',
      nullable: true,
      description: 'Group members, each {id, user_id} (or send member_ids)',
      items: { type: 'object', properties: { id: blank({ type: 'string', description: 'ID of the group member' }), user_id: { type: 'integer', required: true, description: 'User ID' } } },
    },
    slack_channel_ids: { type: 'array', items: { type: 'string' }, nullable: true, description: 'Array of Slack channel IDs (stored: Taproot sends nothing)' },
    communication_group_conditions: {
      type: 'array',
      nullable: true,
      description: 'Group conditions: each compares one property_type with the records its <property_type>_ids (or properties) name; an update replaces them all',
      items: {
        type: 'object',
        properties: {
          id: blank({ type: 'string', description: 'ID of the condition' }),
          property_type: { type: 'string', enum: PROPERTY_TYPES, description: 'Property type' },
          condition: blank({ type: 'string', description: 'Condition' }),
          properties: {
            type: 'array',
            nullable: true,
            description: 'The records compared, each {id} (the Terraform provider sends them so)',
            items: { type: 'object', properties: { id: { type: 'string', description: 'ID of the record' }, name: blank({ type: 'string', description: 'Ignored' }) } },
          },
          ...Object.fromEntries(PROPERTY_TYPES.map((t) => [`${t}_ids`, idsOf(PROPERTY_RECORDS[t].noun)])),
        },
      },
    },
    communication_external_group_members: {
      type: 'array',
      nullable: true,
      description: 'External group members, each reached by e-mail or phone number; an update replaces them all',
      items: {
        type: 'object',
        properties: {
          id: blank({ type: 'string', description: 'ID of the external group member' }),
          name: blank({ type: 'string', description: 'Name of the external member' }),
          email: blank({ type: 'string', format: 'email', description: 'Email of the external member' }),
          phone_number: blank({ type: 'string', description: 'Phone number of the external member' }),
        },
      },
    },
  },
});

type Issue = { attribute: string; detail: string; code?: string };
const refuse = (issues: Issue[]) => {
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
};
const list = (value: unknown): Row[] => (Array.isArray(value) ? (value as Row[]) : []);
/** The stored item with `id` among `current`'s, to keep its id; otherwise a new id. */
const keptId = (current: unknown, id: unknown): string => (id != null && list(current).some((c) => c.id === String(id).toLowerCase()) ? String(id).toLowerCase() : randomUUID());

/** `member_ids` or `communication_group_members` (one of them), both stored: users of the organization. */
async function members(ctx: WriteContext, changes: Row, current: Row | null): Promise<Row> {
  const byIds = changes.member_ids !== undefined;
  const byMembers = changes.communication_group_members !== undefined;
  if (!byIds && !byMembers) return {};
  if (byIds && byMembers) refuse([{ attribute: 'communication_group_members', detail: 'communication_group_members: send the members as member_ids or as communication_group_members, not both' }]);
  const userIds = byIds ? ((changes.member_ids as number[] | null) ?? []).map(String) : list(changes.communication_group_members).map((m) => String(m.user_id));
  const found = await USERS.existing(ctx.manager, ctx.organizationId, [...new Set(userIds)]);
  refuse(
    userIds.flatMap((id, i) => {
      if (found.has(id)) return [];
      // The pointer is the member the client sent, under the name it sent it.
      const [attribute, label] = byIds ? [`member_ids/${i}`, `member_ids[${i}]`] : [`communication_group_members/${i}/user_id`, `communication_group_members[${i}].user_id`];
      return [{ attribute, detail: `${label}: ${id} is not a user of this organization`, code: IncidentsErrorCode.UnknownUser }];
    }),
  );
  const unique = [...new Set(userIds)].map(Number);
  const stored = list(current?.communication_group_members);
  return {
    member_ids: unique,
    communication_group_members: unique.map((userId) => ({ id: stored.find((m) => m.user_id === userId)?.id ?? randomUUID(), user_id: userId })),
  };
}

/** Each condition names its property type and records of it (by `<type>_ids` or `properties`), answered both ways. */
async function conditions(ctx: WriteContext, sent: Row[], current: Row | null): Promise<Row[]> {
  const issues: Issue[] = [];
  const out: Row[] = [];
  for (const [i, c] of sent.entries()) {
    const at = `communication_group_conditions/${i}`;
    const type = c.property_type as PropertyType | undefined;
    if (!type) {
      issues.push({ attribute: `${at}/property_type`, detail: `${at}/property_type: a condition names the property it compares`, code: IncidentsErrorCode.RequiredAttribute });
      continue;
    }
    const others = PROPERTY_TYPES.filter((t) => t !== type && list(c[`${t}_ids`]).length > 0);
    for (const t of others) issues.push({ attribute: `${at}/${t}_ids`, detail: `${at}/${t}_ids: a ${type} condition names ${type}_ids` });
    const byIds = c[`${type}_ids`] != null;
    const ids = byIds ? (c[`${type}_ids`] as string[]) : list(c.properties).map((p) => String(p.id));
    const found = await PROPERTY_RECORDS[type].existing(ctx.manager, ctx.organizationId, [...new Set(ids.map((id) => id.toLowerCase()))]);
    for (const [j, id] of ids.entries()) {
      if (found.has(id.toLowerCase())) continue;
      const pointer = byIds ? `${at}/${type}_ids/${j}` : `${at}/properties/${j}/id`;
      issues.push({ attribute: pointer, detail: `${pointer}: ${id} is not a ${PROPERTY_RECORDS[type].noun} of this organization`, code: IncidentsErrorCode.UnknownReference });
    }
    const named = [...new Set(ids.map((id) => id.toLowerCase()))];
    out.push({ id: keptId(current?.communication_group_conditions, c.id), property_type: type, condition: c.condition ?? null, properties: named.map((id) => ({ id })), [`${type}_ids`]: named });
  }
  refuse(issues);
  return out;
}

/** External members: each reached by e-mail or phone; stored ones keep their ids. */
function externalMembers(sent: Row[], current: Row | null): Row[] {
  refuse(
    sent.flatMap((m, i) =>
      m.email == null && m.phone_number == null
        ? [{ attribute: `communication_external_group_members/${i}`, detail: `communication_external_group_members[${i}]: an external member is reached by email or phone_number`, code: IncidentsErrorCode.RequiredAttribute }]
        : [],
    ),
  );
  return sent.map((m) => ({ id: keptId(current?.communication_external_group_members, m.id), name: m.name ?? null, email: m.email ?? null, phone_number: m.phone_number ?? null }));
}

/** The write's attributes as stored: its type, members and conditions' records of the organization. */
async function resolved(ctx: WriteContext, current: Row | null, changes: Row): Promise<Row> {
  const attributes = { ...(await checkReferenced(ctx, changes, { communication_type_id: COMMUNICATION_TYPES })), ...(await members(ctx, changes, current)) };
  if (changes.communication_group_conditions !== undefined) attributes.communication_group_conditions = await conditions(ctx, list(changes.communication_group_conditions), current);
  if (changes.communication_external_group_members !== undefined) attributes.communication_external_group_members = externalMembers(list(changes.communication_external_group_members), current);
  return attributes;
}

export const communicationsGroupDefinition: ResourceDefinition = {
  schema: communicationsGroupSchema,
  context: 'incidents',
  table: 'communications_groups',
  permission: { family: 'communication' },
  rules: {
    beforeCreate: (attributes, ctx) => resolved(ctx, null, attributes),
    beforeUpdate: (current, changes, ctx) => resolved(ctx, current, changes),
  },
};
