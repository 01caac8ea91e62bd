import { documentContent, errorsResponse } from '@taproot/json-api';

/** The regenerate action; the list, create, get and update are generated from the declaration. */
export const ON_CALL_PAY_REPORTS_OPENAPI = {
  schemas: {},
  paths: {
    '/v1/on_call_pay_reports/{id}/regenerate': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      post: {
        operationId: 'regenerateOnCallPayReport',
        summary: 'Regenerate an On-Call Pay Report',
        description: 'Recomputes the report from the current shifts of its schedules, with its terms unchanged (Taproot: at once, status generated).',
        tags: ['OnCallPayReports'],
        responses: {
          '200': { description: 'on_call_pay_report regenerated', ...documentContent('on_call_pay_report_response') },
          '401': errorsResponse('unauthorized'),
          '403': errorsResponse('the caller may not update schedules'),
          '404': errorsResponse('on_call_pay_report not found'),
        },
      },
    },
  },
};
