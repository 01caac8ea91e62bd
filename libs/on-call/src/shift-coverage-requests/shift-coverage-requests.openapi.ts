import { documentContent, errorsResponse, requestDocumentSchema } from '@taproot/json-api';
import { coverageRangeSchema } from './shift-coverage-request.schema';

const TAGS = ['ShiftCoverageRequests'];

/** A create answers a list: the range may hold several shifts, one request each. */
const create = (operationId: string, summary: string) => ({
  operationId,
  summary,
  description:
    "Creates coverage requests for the shifts overlapping the requested time range (of user_id when given), one per shift, each covering the part of its shift inside the range. Coverage for another user's shift needs the schedule_override create permission (422 otherwise).",
  tags: TAGS,
  requestBody: { required: true, ...documentContent('new_shift_coverage_request') },
  responses: {
    '201': { description: 'the coverage requests created, one per shift', ...documentContent('shift_coverage_request_list') },
    '401': errorsResponse('unauthorized'),
    '403': errorsResponse('the caller may not read schedules'),
    '404': errorsResponse('no such schedule'),
    '415': errorsResponse('request body is not application/vnd.api+json'),
    '422': errorsResponse("invalid range, unknown user, no shift in the range, another user's shift without the override permission, or a key without a user"),
  },
});

/**
 * The creates of shift coverage requests; the list, get and delete are generated from the
 * declaration. The body is `coverageRangeSchema`'s (the reference's `new_shift_coverage_request`,
 * plus `schedule_id` for the spec's route without a schedule in the path).
 */
export const SHIFT_COVERAGE_REQUESTS_OPENAPI = {
  schemas: { new_shift_coverage_request: requestDocumentSchema(coverageRangeSchema, 'create') },
  paths: {
    '/v1/schedules/{schedule_id}/shift_coverage_requests': { post: create('createShiftCoverageRequest', 'Creates shift coverage requests') },
    '/v1/shift_coverage_requests': { post: create('createShiftCoverageRequestOfSchedule', 'Creates shift coverage requests in the schedule the body names (schedule_id)') },
  },
};
