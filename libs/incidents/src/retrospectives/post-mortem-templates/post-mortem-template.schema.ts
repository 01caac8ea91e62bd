import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition, Row } from '@taproot/resources';

export const POST_MORTEM_TEMPLATE_FORMATS = ['html', 'markdown'] as const;

/**
 * A post-mortem template (docs/retrospectives.md): the starting text of an incident's
 * retrospective. `content` is stored as sent; `content_html` answers it when the format is html.
 */
export const postMortemTemplateSchema = defineResource({
  type: 'post_mortem_templates',
  singular: 'post_mortem_template',
  path: '/v1/post_mortem_templates',
  readTable: 'post_mortem_templates_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  // The reference spells them "Postmortem".
  operationIds: {
    list: 'listPostmortemTemplates',
    create: 'createPostmortemTemplate',
    get: 'getPostmortemTemplate',
    update: 'updatePostmortemTemplate',
    delete: 'deletePostmortemTemplate',
  },
  attributes: {
    name: { type: 'string', required: true, alwaysStored: true, minLength: 1, maxLength: 255, filter: true, sortable: true, searchable: true, description: 'The name of the postmortem template' },
    slug: { type: 'string', writable: false, derivedFrom: 'name', filter: true, description: 'The slugified name of the postmortem template' },
    content: { type: 'string', default: '', alwaysStored: true, searchable: true, description: 'The postmortem template. Liquid syntax and markdown are supported' },
    content_html: { type: 'string', nullable: true, writable: false, description: 'The postmortem template in HTML format (the content, when its format is html)' },
    content_json: { type: 'object', nullable: true, writable: false, description: 'The postmortem template in TipTap JSON format; Taproot keeps none' },
    default: { type: 'boolean', nullable: true, default: false, filter: ['eq'], description: 'Default selected template when editing a postmortem' },
    // The request's format is nullable, the answer's is not: null is the default, html.
    format: { type: 'string', enum: POST_MORTEM_TEMPLATE_FORMATS, nullable: true, alwaysStored: true, default: 'html', description: 'The format of the input' },
  },
});

/** `content_html` follows the content and its format; a null format is html. */
function render(current: Row, changes: Row): Row {
  const next = { ...changes };
  if ('format' in next && next.format == null) next.format = 'html';
  if (!('content' in next) && !('format' in next)) return next;
  const { content, format } = { ...current, ...next };
  return { ...next, content_html: format === 'html' ? content : null };
}

export const postMortemTemplateDefinition: ResourceDefinition = {
  schema: postMortemTemplateSchema,
  context: 'incidents',
  table: 'post_mortem_templates',
  permission: { family: 'retrospective' },
  rules: {
    beforeCreate: (attributes) => render({}, { content: '', format: 'html', ...attributes }),
    beforeUpdate: render,
  },
};
