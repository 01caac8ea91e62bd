import { buildOpenApiDocument } from '@taproot/json-api';
import { dashboardSchema } from '../dashboards/dashboard.schema';
import { dashboardPanelSchema } from './dashboard-panel.schema';

/**
 * What the declarations cannot say: a panel read's window parameters, and the duplicate and
 * set-default actions (the reference's operation ids), answering the declarations' documents.
 */
function dashboardActionsOpenApi() {
  const generated = buildOpenApiDocument([dashboardSchema, dashboardPanelSchema], { title: 'dashboards', version: '1' }).paths;
  const panelGet = generated['/v1/dashboard_panels/{id}'].get as Record<string, unknown> & { parameters?: unknown[] };
  const query = (name: string, description: string) => ({ in: 'query', name, required: false, description, schema: { type: 'string' } });
  const response = (description: string, schema: string) => ({ description, content: { 'application/vnd.api+json': { schema: { $ref: `#/components/schemas/${schema}` } } } });
  const errors = (status: string, description: string) => ({ [status]: response(description, 'errors_list') });
  const action = (operationId: string, summary: string, status: string, schema: string, tag: string) => ({
    parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'string' } }],
    post: { operationId, summary, tags: [tag], responses: { [status]: response(summary, schema), ...errors('401', 'responds with unauthorized for invalid token'), ...errors('404', 'not found') } },
  });
  return {
    paths: {
      '/v1/dashboard_panels/{id}': {
        get: {
          ...panelGet,
          parameters: [
            ...(panelGet.parameters ?? []),
            query('range', "Date range for panel data, ISO8601 timestamps separated by the word 'to'"),
            query('period', "The time period to group data by: 'day', 'week' or 'month'"),
            query('time_zone', 'The time zone to use for period'),
          ],
        },
      },
      '/v1/dashboard_panels/{id}/duplicate': action('duplicateDashboardPanel', 'Duplicates a dashboard panel', '201', 'dashboard_panel_response', 'DashboardPanels'),
      '/v1/dashboards/{id}/duplicate': action('duplicateDashboard', 'Duplicates a dashboard and its panels', '201', 'dashboard_response', 'Dashboards'),
      '/v1/dashboards/{id}/set_default': action('setDefaultDashboard', "Sets the caller's default dashboard", '200', 'dashboard_response', 'Dashboards'),
    },
  };
}

export const DASHBOARDS_OPENAPI = dashboardActionsOpenApi();
