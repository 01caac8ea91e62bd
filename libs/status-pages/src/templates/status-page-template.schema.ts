import { defineResource, JsonApiError } from '@taproot/json-api';
import type { ResourceDefinition, Row } from '@taproot/resources';
import { EVENT_STATUSES } from '../status-page-events/status-page-event.schema';
import { StatusPagesErrorCode } from '../status-pages/status-page-errors';
import { POSITION, STATUS_PAGE_CHILD_PERMISSION, STATUS_PAGE_ID, UNDER_STATUS_PAGE } from '../status-pages/under-status-page';

/**
 * A template of status page updates (reference `status_page_template`; docs/status-pages.md):
 * created and listed under its page, read and changed at `/v1/templates/{id}`, in `position` order.
 */
export const statusPageTemplateSchema = defineResource({
  type: 'status_page_templates',
  singular: 'status_page_template',
  path: '/v1/templates',
  readTable: 'status_page_templates_read',
  defaultSort: 'position',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  operationIds: { list: 'listStatusPageTemplates', create: 'createStatusPageTemplate', get: 'getStatusPageTemplate', update: 'updateStatusPageTemplate', delete: 'deleteStatusPageTemplate' },
  parent: { ...UNDER_STATUS_PAGE, segment: 'templates' },
  // The reference's create and update take the bare template; its own MCP server sends that.
  bareRequest: true,
  attributes: {
    status_page_id: STATUS_PAGE_ID,
    title: { type: 'string', required: true, minLength: 1, maxLength: 255, description: 'Title of the template' },
    body: { type: 'string', required: true, description: 'Description of the event the template will populate' },
    update_title: { type: 'string', nullable: true, description: 'Title that will be used for the status page update' },
    update_status: {
      type: 'string',
      nullable: true,
      enum: [...EVENT_STATUSES.normal, ...EVENT_STATUSES.scheduled],
      description: 'Status of the event the template will populate: investigating, identified, monitoring or resolved for a normal template; scheduled, in_progress or completed for a scheduled one',
    },
    kind: { type: 'string', enum: ['normal', 'scheduled'], default: 'normal', description: 'The kind of the status page template' },
    should_notify_subscribers: { type: 'boolean', nullable: true, alwaysStored: true, default: false, description: 'Controls if incident subscribers should be notified' },
    enabled: { type: 'boolean', nullable: true, alwaysStored: true, default: true, description: 'Enable / Disable the status page template' },
    position: { ...POSITION, description: "Position of the template among its page's" },
  },
});

/** Null flags take their defaults; the update status must be one of the template's kind. */
function checked(written: Row, settled: Row): Row {
  const attributes = { ...written };
  if (attributes.should_notify_subscribers === null) attributes.should_notify_subscribers = false;
  if (attributes.enabled === null) attributes.enabled = true;
  const kind = settled.kind as keyof typeof EVENT_STATUSES;
  const status = settled.update_status;
  if (typeof status === 'string' && !(EVENT_STATUSES[kind] as readonly string[]).includes(status)) {
    throw JsonApiError.invalidAttributes([
      { attribute: 'update_status', detail: `update_status of a ${kind} template must be one of ${EVENT_STATUSES[kind].join(', ')} (got ${status})`, code: StatusPagesErrorCode.StatusNotOfKind },
    ]);
  }
  return attributes;
}

export const statusPageTemplateDefinition: ResourceDefinition = {
  schema: statusPageTemplateSchema,
  context: 'status-pages',
  table: 'status_page_templates',
  permission: STATUS_PAGE_CHILD_PERMISSION,
  rules: {
    beforeCreate: (input) => checked(input, input),
    beforeUpdate: (current, changes) => checked(changes, { ...current, ...changes }),
  },
};
