/** The charts' routes (`ChartsController`), under the reference's operation ids and documents. */
const chart = (operationId: string, tag: string, schema: string, summary: string) => ({
  parameters: [{ in: 'path', name: 'id', required: true, schema: { type: 'string' } }],
  get: {
    operationId,
    summary,
    tags: [tag],
    parameters: [{ in: 'query', name: 'period', required: false, description: 'day (the default), week or month: 30 days, 12 weeks or 12 months up to now', schema: { type: 'string', enum: ['day', 'week', 'month'] } }],
    responses: {
      '200': { description: 'success', content: { 'application/vnd.api+json': { schema: { $ref: `#/components/schemas/${schema}` } } } },
      ...Object.fromEntries(
        [
          ['400', 'malformed period'],
          ['401', 'responds with unauthorized for invalid token'],
          ['404', 'resource not found'],
        ].map(([status, description]) => [status, { description, content: { 'application/vnd.api+json': { schema: { $ref: '#/components/schemas/errors_list' } } } }]),
      ),
    },
  },
});

const chartResponse = (description: string) => ({
  type: 'object',
  required: ['data'],
  properties: { data: { type: 'object', description, additionalProperties: { type: 'number' } } },
});

export const CHARTS_OPENAPI = {
  schemas: {
    incidents_chart_response: chartResponse('Incidents started per period, by the period start (YYYY-MM-DD)'),
    uptime_chart_response: chartResponse('Percent of each period with no open incident, by the period start (YYYY-MM-DD)'),
  },
  paths: {
    '/v1/services/{id}/incidents_chart': chart('getServiceIncidentsChart', 'Services', 'incidents_chart_response', "Get service's incidents chart"),
    '/v1/functionalities/{id}/incidents_chart': chart('getFunctionalityIncidentsChart', 'Functionalities', 'incidents_chart_response', "Get functionality's incidents chart"),
    '/v1/teams/{id}/incidents_chart': chart('getTeamIncidentsChart', 'Teams', 'incidents_chart_response', "Get team's incidents chart"),
    '/v1/services/{id}/uptime_chart': chart('getServiceUptimeChart', 'Services', 'uptime_chart_response', "Get service's uptime chart"),
    '/v1/functionalities/{id}/uptime_chart': chart('getFunctionalityUptimeChart', 'Functionalities', 'uptime_chart_response', "Get functionality's uptime chart"),
  },
};
