import { documentContent, errorsResponse, resourceListDocument } from '@taproot/json-api';

/** The trigger in `/v1/openapi.json` (the hosted API's `triggerCatalogChecklistTemplate`); the CRUD routes are the declarations'. */
export const CATALOG_CHECKLISTS_OPENAPI = {
  schemas: {
    catalog_entity_checklists_triggered: resourceListDocument('catalog_entity_checklists', 'catalog_entity_checklist', {
      description: 'The checklists a trigger made, one per record without an open checklist of the template',
    }),
  },
  paths: {
    '/v1/catalog_checklist_templates/{id}/trigger': {
      parameters: [{ name: 'id', in: 'path', required: true, description: 'The template id or slug', schema: { type: 'string' } }],
      post: {
        operationId: 'triggerCatalogChecklistTemplate',
        summary: 'Trigger a catalog checklist template',
        description:
          'Makes a checklist (status triggered, every field unchecked) for each record the template covers that has no triggered or in-progress checklist of it. Answers the checklists made.',
        tags: ['CatalogChecklistTemplates'],
        responses: {
          '202': { description: 'audit triggered', ...documentContent('catalog_entity_checklists_triggered') },
          '401': errorsResponse('unauthorized'),
          '403': errorsResponse('the caller may not create catalogs'),
          '404': errorsResponse('resource not found'),
        },
      },
    },
  },
};
