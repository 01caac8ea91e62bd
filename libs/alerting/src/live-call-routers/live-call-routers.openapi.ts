import { LIVE_CALL_COUNTRIES, LIVE_CALL_PHONE_TYPES } from './live-call-router.schema';

const query = (name: string, values: readonly string[]) => ({ in: 'query', name, required: true, schema: { type: 'string', enum: [...values] } });
const errors = (description: string) => ({ description, content: { 'application/vnd.api+json': { schema: { $ref: '#/components/schemas/errors_list' } } } });

/** `generate_phone_number` (`LiveCallRouterPhoneNumbersController`), under the reference's operation id. */
export const LIVE_CALL_ROUTERS_OPENAPI = {
  paths: {
    '/v1/live_call_routers/generate_phone_number': {
      get: {
        operationId: 'generatePhoneNumberLiveCallRouter',
        summary: 'Generates a phone number for Live Call Router',
        tags: ['LiveCallRouters'],
        parameters: [query('country_code', LIVE_CALL_COUNTRIES), query('phone_type', LIVE_CALL_PHONE_TYPES)],
        responses: {
          '200': {
            description: 'live_call_router phone number',
            content: {
              'application/vnd.api+json': {
                schema: {
                  type: 'object',
                  required: ['data'],
                  properties: {
                    data: {
                      type: 'object',
                      required: ['id', 'type', 'attributes'],
                      properties: {
                        id: { type: 'string' },
                        type: { type: 'string', enum: ['phone_numbers'] },
                        attributes: { type: 'object', properties: { phone_number: { type: 'string' }, country_code: { type: 'string' }, phone_type: { type: 'string' } } },
                      },
                    },
                  },
                },
              },
            },
          },
          '401': errors('responds with unauthorized for invalid token'),
          '403': errors('the caller lacks live_call_routing create'),
          '422': errors('live_call_router without required params'),
        },
      },
    },
  },
};
