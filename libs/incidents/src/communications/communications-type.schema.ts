import { defineResource } from '@taproot/json-api';
import { updateEach, type ResourceDefinition, type Row, type WriteContext } from '@taproot/resources';
import type { DomainEvent } from '@taproot/messaging';
import { named, ordered, servedAt } from './communications-attributes';
import { communicationsTemplateDefinition } from './communications-template.schema';

/**
 * A communications type (docs/communications.md): what a communication is about (an outage, a
 * maintenance); templates and groups are of one. Its delete answers 409 while they name it.
 */
export const communicationsTypeSchema = defineResource({
  ...servedAt('types'),
  defaultSort: 'position',
  deleteRefusedWhileNamedBy: ['communications_templates', 'communications_groups'],
  attributes: {
    ...named('communications type'),
    color: { type: 'string', required: true, nullable: true, maxLength: 32, description: 'The color of the communications type' },
    position: ordered('communications type'),
  },
});

/** A renamed type: the templates of it answer its new name in `communication_type`, each with its event. */
async function renameInTemplates(type: Row, previous: Row, ctx: WriteContext): Promise<DomainEvent[]> {
  if (type.name === previous.name) return [];
  const rows = (await ctx.manager.query('SELECT id FROM communications_templates WHERE organization_id = $1 AND communication_type_id = $2 ORDER BY created_at, id', [ctx.organizationId, type.id])) as Row[];
  return updateEach(ctx, communicationsTemplateDefinition, rows, () => ({ communication_type_id: String(type.id) }));
}

export const communicationsTypeDefinition: ResourceDefinition = {
  schema: communicationsTypeSchema,
  context: 'incidents',
  table: 'communications_types',
  permission: { family: 'communication' },
  rules: { afterUpdate: renameInTemplates },
};
