import { defineResource, JsonApiError } from '@taproot/json-api';
import { updateEach, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import type { DomainEvent } from '@taproot/messaging';
import { named, ordered, servedAt } from './communications-attributes';
import { communicationsTemplateDefinition, templatesNamingStage } from './communications-template.schema';

/**
 * A communications stage (docs/communications.md): a moment of an incident a communication is
 * sent at (investigating, resolved); templates hold their contents per stage. Its delete answers
 * 409 while a template has contents for it.
 */
export const communicationsStageSchema = defineResource({
  ...servedAt('stages'),
  defaultSort: 'position',
  deleteRefusedWhileNamedBy: ['communications_templates'],
  attributes: {
    ...named('communications stage'),
    position: ordered('communications stage'),
  },
});

/** A renamed stage: the templates with contents for it answer its new name, each with its event. */
async function renameInTemplates(stage: Row, previous: Row, ctx: WriteContext): Promise<DomainEvent[]> {
  if (stage.name === previous.name) return [];
  const templates = await templatesNamingStage(ctx, String(stage.id));
  return updateEach(ctx, communicationsTemplateDefinition, templates, (template) => ({ communication_template_stages: template.communication_template_stages }));
}

async function refuseWhileInTemplates(stage: Row, ctx: WriteContext): Promise<void> {
  const [template] = await templatesNamingStage(ctx, String(stage.id));
  if (template) {
    throw JsonApiError.of(409, 'Still referenced', `communications_stage ${String(stage.id)} has contents in communications_template ${String(template.id)}; remove them first`, 'STILL_REFERENCED');
  }
}

export const communicationsStageDefinition: ResourceDefinition = {
  schema: communicationsStageSchema,
  context: 'incidents',
  table: 'communications_stages',
  permission: { family: 'communication' },
  rules: { afterUpdate: renameInTemplates, beforeDelete: refuseWhileInTemplates },
};
