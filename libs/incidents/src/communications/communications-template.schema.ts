import { randomUUID } from 'node:crypto';
import { defineResource, isUuid, JsonApiError, type AttributeDef } from '@taproot/json-api';
import { checkReferenced, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import { IncidentsErrorCode } from '../errors';
import { COMMUNICATION_TYPES, communicationTypeId, named, namesOf, ordered, servedAt } from './communications-attributes';

const CONTENTS = ['sms_content', 'email_subject', 'email_body', 'slack_content'] as const;
const content = (what: string): AttributeDef => ({ type: 'string', nullable: true, description: `${what} for the stage` });
const CONTENT_MEMBERS: Record<(typeof CONTENTS)[number], AttributeDef> = {
  sms_content: content('SMS content'),
  email_subject: content('Email subject'),
  email_body: content('Email body'),
  slack_content: content('Slack content'),
};
/** The hosted API's Terraform provider sends "" for an unset id or stage of a block. */
const TEMPLATE_STAGE_ID: AttributeDef = { type: 'string', nullable: true, blankAsUnset: true, description: 'ID of the communication template stage: its contents are changed (none: a new one)' };
const STAGE_ID: AttributeDef = { type: 'string', format: 'uuid', blankAsUnset: true, description: 'The communication stage ID' };

/** How the answer holds a stage's contents: the hosted API's nested resource object. */
interface StoredStage {
  data: {
    id: string;
    type: 'communications_template_stages';
    attributes: Record<(typeof CONTENTS)[number], string | null> & {
      created_at: string;
      updated_at: string;
      communication_stage: { id: string; name: string | null };
      communication_template: { id: string; name: string };
    };
  };
}

/**
 * A communications template (docs/communications.md): what is sent for a communication type, with
 * its contents per stage (SMS, e-mail subject and body, Slack). Written as the swagger's
 * `communication_template_stages_attributes` or as the Terraform provider's flat
 * `communication_template_stages`; answered as the swagger's nested `communication_template_stages`.
 */
export const communicationsTemplateSchema = defineResource({
  ...servedAt('templates'),
  defaultSort: 'position',
  attributes: {
    ...named('communications template'),
    position: ordered('communications template'),
    communication_type_id: communicationTypeId('communications template'),
    communication_type: {
      type: 'object',
      writable: false,
      properties: { id: { type: 'string', description: 'ID of the communication type' }, name: { type: 'string', description: 'Name of the communication type' } },
      description: 'The communication type (its id and current name)',
    },
    communication_template_stages: {
      type: 'array',
      nullable: true,
      alwaysStored: true,
      description:
        'Communication template stages, answered as {data: {id, type, attributes}} with the stage and template each names. A write may send them flat instead of communication_template_stages_attributes (the Terraform provider does), or as answered; an update replaces them all.',
      items: {
        type: 'object',
        properties: {
          id: TEMPLATE_STAGE_ID,
          communication_stage_id: STAGE_ID,
          ...CONTENT_MEMBERS,
          data: { type: 'object', description: 'The stage contents as answered' },
        },
      },
    },
  },
  inputOnlyAttributes: {
    communication_template_stages_attributes: {
      type: 'array',
      nullable: true,
      description: 'Template stages attributes: each names its stage (a new one) or its id (its contents changed); an update replaces them all',
      items: { type: 'object', properties: { id: TEMPLATE_STAGE_ID, communication_stage_id: STAGE_ID, ...CONTENT_MEMBERS } },
    },
  },
});

const STAGE_INPUTS = ['communication_template_stages_attributes', 'communication_template_stages'] as const;

/** A stage item as a client sends it, flat (an answered one, `{data: ...}`, read as such). */
function flat(item: Row): Row {
  const data = item.data as StoredStage['data'] | undefined;
  if (!data || typeof data !== 'object') return item;
  const attributes = (data.attributes ?? {}) as Partial<StoredStage['data']['attributes']>;
  const contents = Object.fromEntries(CONTENTS.filter((k) => k in attributes).map((k) => [k, attributes[k]]));
  return { id: data.id, communication_stage_id: attributes.communication_stage?.id, ...contents };
}

/**
 * The stage contents `input` sends, as stored and answered: an item with an `id` changes the
 * template's stage of that id (its other members kept), one without adds a stage. Each stage is one
 * of the organization's, once per template. Names are read in the command's transaction.
 */
async function stagesOf(ctx: WriteContext, input: { attribute: string; items: Row[] }, current: StoredStage[], template: { id: string; name: string }): Promise<StoredStage[]> {
  const { attribute } = input;
  const issues: { attribute: string; detail: string; code?: string }[] = [];
  const byId = new Map(current.map((s) => [s.data.id, s]));
  const resolved = input.items.map((raw, i) => {
    const item = flat(raw);
    const id = item.id == null ? undefined : String(item.id).toLowerCase();
    const existing = id === undefined ? undefined : byId.get(id);
    if (id !== undefined && !existing) issues.push({ attribute: `${attribute}/${i}/id`, detail: `${attribute}[${i}].id: ${id} is not a stage of this template`, code: IncidentsErrorCode.UnknownReference });
    const stageId = item.communication_stage_id == null ? existing?.data.attributes.communication_stage.id : String(item.communication_stage_id).toLowerCase();
    if (stageId === undefined && id === undefined) {
      issues.push({ attribute: `${attribute}/${i}/communication_stage_id`, detail: `${attribute}[${i}].communication_stage_id: a new template stage names its communications stage`, code: IncidentsErrorCode.RequiredAttribute });
    }
    return { item, existing, stageId };
  });
  const stageIds = [...new Set(resolved.flatMap((r) => (r.stageId ? [r.stageId] : [])))];
  const names = await namesOf(ctx.manager, 'communications_stages', ctx.organizationId, stageIds.filter(isUuid));
  const seen = new Map<string, number>();
  for (const [i, { stageId }] of resolved.entries()) {
    if (stageId === undefined) continue;
    const at = `${attribute}/${i}/communication_stage_id`;
    if (!names.has(stageId)) issues.push({ attribute: at, detail: `${attribute}[${i}].communication_stage_id: ${stageId} is not a communications stage of this organization`, code: IncidentsErrorCode.UnknownReference });
    else if (seen.has(stageId)) issues.push({ attribute: at, detail: `${attribute}[${i}].communication_stage_id: stage ${stageId} has its contents at ${attribute}[${seen.get(stageId)}] already` });
    else seen.set(stageId, i);
  }
  if (issues.length) throw JsonApiError.invalidAttributes(issues);
  const now = ctx.now.toISOString();
  return resolved.map(({ item, existing, stageId }) => {
    const before = existing?.data.attributes;
    const contents = Object.fromEntries(CONTENTS.map((k) => [k, item[k] !== undefined ? item[k] : (before?.[k] ?? null)])) as Record<(typeof CONTENTS)[number], string | null>;
    const changed = !before || before.communication_stage.id !== stageId || CONTENTS.some((k) => contents[k] !== before[k]);
    return {
      data: {
        id: existing?.data.id ?? randomUUID(),
        type: 'communications_template_stages',
        attributes: {
          ...contents,
          created_at: before?.created_at ?? now,
          updated_at: changed ? now : before.updated_at,
          communication_stage: { id: stageId!, name: names.get(stageId!) ?? null },
          communication_template: template,
        },
      },
    };
  });
}

/** The stage contents a write sends, under whichever name it sends them (one only). */
function stageInput(attributes: Row): { attribute: string; items: Row[] } | undefined {
  const sent = STAGE_INPUTS.filter((name) => attributes[name] !== undefined);
  if (sent.length > 1) throw JsonApiError.invalidAttributes([{ attribute: sent[1], detail: `${sent[1]}: send the stages as ${sent[0]} or as ${sent[1]}, not both` }]);
  if (sent.length === 0) return undefined;
  return { attribute: sent[0], items: (attributes[sent[0]] as Row[] | null) ?? [] };
}

/** The write's attributes as stored: its type checked and named, its stages resolved. */
async function resolved(ctx: WriteContext, current: Row | null, changes: Row): Promise<Row> {
  const { communication_template_stages_attributes: _, ...attributes } = await checkReferenced(ctx, changes, { communication_type_id: COMMUNICATION_TYPES });
  const id = String(current?.id ?? changes.id);
  if (attributes.communication_type_id !== undefined) {
    const typeId = String(attributes.communication_type_id);
    const names = await namesOf(ctx.manager, 'communications_types', ctx.organizationId, [typeId]);
    attributes.communication_type = { id: typeId, name: names.get(typeId) };
  }
  const input = stageInput(changes);
  const name = String(attributes.name ?? current?.name);
  const stored = (current?.communication_template_stages as StoredStage[] | null) ?? [];
  // A rename shows in each stage's `communication_template`.
  const renamed = current && attributes.name !== undefined && attributes.name !== current.name;
  const items = input ?? (renamed || !current ? { attribute: 'communication_template_stages', items: stored as unknown as Row[] } : undefined);
  if (items) attributes.communication_template_stages = await stagesOf(ctx, items, stored, { id, name });
  return attributes;
}

/** Templates of the organization with contents for the stage, by creation, with their stored stages. */
export async function templatesNamingStage(ctx: WriteContext, stageId: string): Promise<Row[]> {
  return (await ctx.manager.query(
    'SELECT id, communication_template_stages FROM communications_templates WHERE organization_id = $1 AND communication_template_stages @> $2::jsonb ORDER BY created_at, id',
    [ctx.organizationId, JSON.stringify([{ data: { attributes: { communication_stage: { id: stageId } } } }])],
  )) as Row[];
}

export const communicationsTemplateDefinition: ResourceDefinition = {
  schema: communicationsTemplateSchema,
  context: 'incidents',
  table: 'communications_templates',
  permission: { family: 'communication' },
  rules: {
    beforeCreate: (attributes, ctx) => resolved(ctx, null, { ...attributes, id: randomUUID() }),
    beforeUpdate: (current, changes, ctx) => resolved(ctx, current, changes),
  },
};
