import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { checkPanelParams } from './panel-data';
import { PANEL_PARAMS } from './panel-params';

/**
 * A panel of a dashboard (docs/dashboards.md): created and listed under its dashboard, read,
 * changed, duplicated and deleted at `/v1/dashboard_panels/{id}`. `data` is computed from the
 * counted collections whenever a panel is answered; what is stored (and in events) is empty.
 */
export const dashboardPanelSchema = defineResource({
  type: 'dashboard_panels',
  singular: 'dashboard_panel',
  path: '/v1/dashboard_panels',
  readTable: 'dashboard_panels_read',
  defaultSort: 'created_at',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  parent: { path: '/v1/dashboards', param: 'dashboard_id', attribute: 'dashboard_id', table: 'dashboards', segment: 'panels', onParentDelete: 'cascade' },
  attributes: {
    dashboard_id: { type: 'string', format: 'uuid', writable: false, description: 'The panel dashboard' },
    name: { type: 'string', nullable: true, maxLength: 255, filter: true, description: 'The name of the dashboard_panel' },
    params: PANEL_PARAMS,
    position: {
      type: 'object',
      nullable: true,
      description: 'Where the panel sits on the dashboard grid',
      properties: { x: { type: 'number', required: true }, y: { type: 'number', required: true }, w: { type: 'number', required: true }, h: { type: 'number', required: true } },
    },
    data: { type: 'array', writable: false, default: [], items: { type: 'object' }, description: 'The computed series: one per dataset (or group), a value per period start' },
  },
});

export const dashboardPanelDefinition: ResourceDefinition = {
  schema: dashboardPanelSchema,
  context: 'analytics',
  table: 'dashboard_panels',
  rules: {
    beforeCreate(attributes) {
      checkPanelParams(attributes.params as Parameters<typeof checkPanelParams>[0]);
      return attributes;
    },
    beforeUpdate(_current, changes) {
      if ('params' in changes) checkPanelParams(changes.params as Parameters<typeof checkPanelParams>[0]);
      return changes;
    },
  },
};
