import { buildOpenApiDocument, documentContent, errorsResponse } from '@taproot/json-api';
import { shiftSchema } from './shift.schema';

const query = (name: string, schema: Record<string, unknown>, description: string) => ({ in: 'query', name, required: false, schema, description });

const WINDOW = [
  query('from', { type: 'string' }, 'Start of the window (ISO 8601 date or date-time); default the lower bound of filter[starts_at], else now'),
  query('to', { type: 'string' }, 'End of the window (ISO 8601); default the upper bound of filter[starts_at], else a week after from; at most 366 days after from'),
];
const PAGES = [query('page[number]', { type: 'integer', minimum: 1 }, 'Page number'), query('page[size]', { type: 'integer', minimum: 1 }, 'Page size (at most 100)')];
const INCLUDE = query(
  'include',
  { type: 'string', enum: Object.keys(shiftSchema.relationships ?? {}) },
  "Comma-separated: user, assignee (the user on call), shift_override, shift_shadow, on_call_role (the user's), schedule_rotation, schedule",
);
/** filter[starts_at][gte] and the like: only the shifts starting (ending) in that range; without from/to, the starts_at bounds are the window. */
const RANGES = ['starts_at', 'ends_at'].flatMap((attribute) =>
  ['gt', 'gte', 'lt', 'lte'].map((op) => query(`filter[${attribute}][${op}]`, { type: 'string', format: 'date-time' }, `Only shifts whose ${attribute} is ${op} this instant`)),
);
const refused = { '400': errorsResponse('a bad from, to, filter, include or page parameter'), '401': errorsResponse('unauthorized'), '403': errorsResponse('the caller may not read schedules') };

/** `/v1/shifts` and `/v1/schedules/{id}/shifts` (reference: listShifts, getScheduleShifts), with the shift documents. */
function shiftsOpenApi() {
  const generated = buildOpenApiDocument([shiftSchema], { title: 'shifts', version: '1' });
  const list = (description: string) => ({ description, ...documentContent('shift_list') });
  // A shift is computed, never stored: it has no created_at/updated_at, and the reference requires these.
  const { created_at: _created, updated_at: _updated, ...properties } = (generated.components.schemas.shift as { properties: Record<string, unknown> }).properties;
  const shift = { type: 'object', properties, required: ['schedule_id', 'rotation_id', 'starts_at', 'ends_at', 'is_override', 'is_shadow'] };
  return {
    schemas: { ...generated.components.schemas, shift },
    paths: {
      '/v1/shifts': {
        get: {
          operationId: 'listShifts',
          summary: "List shifts of the organization's schedules in a window",
          tags: ['Shifts'],
          parameters: [
            INCLUDE,
            ...WINDOW,
            query('user_ids[]', { type: 'array', items: { type: 'integer' } }, 'Only the shifts of these users'),
            query('schedule_ids[]', { type: 'array', items: { type: 'string' } }, 'Only the shifts of these schedules'),
            ...RANGES,
            ...PAGES,
          ],
          responses: { '200': list('shifts, ordered by start'), ...refused },
        },
      },
      '/v1/schedules/{id}/shifts': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: {
          operationId: 'getScheduleShifts',
          summary: "Retrieves a schedule's shifts in a window",
          tags: ['Shifts'],
          parameters: [INCLUDE, ...WINDOW, ...RANGES, ...PAGES],
          responses: { '200': list('schedule shifts found'), ...refused, '404': errorsResponse('no such schedule') },
        },
      },
    },
  };
}

export const SHIFTS_OPENAPI = shiftsOpenApi();
