import { defineResource } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';
import { SCHEDULE_ID, underSchedule } from '../shared/schedule-parent';

const USER_DOCUMENT = 'as a user_response document, kept with the request when it was made';

/**
 * A shift coverage request (reference: `shift_coverage_request`): the user on call during a
 * computed shift asks for someone to cover `[starts_at, ends_at)` of it (the part of the shift in
 * the requested range). Made by `POST .../shift_coverage_requests`, one per shift of the range
 * (shift-coverage-request-commands.ts); never updated. `shift`, `schedule` and the users are
 * kept as they were when the request was made: the shift is computed, not stored.
 */
export const shiftCoverageRequestSchema = defineResource({
  type: 'shift_coverage_requests',
  singular: 'shift_coverage_request',
  path: '/v1/shift_coverage_requests',
  readTable: 'shift_coverage_requests_read',
  defaultSort: 'starts_at',
  operations: ['list', 'get', 'delete'],
  // The spec serves the list across schedules too (GET /v1/shift_coverage_requests).
  parent: { ...underSchedule('shift_coverage_requests'), flatList: true },
  attributes: {
    schedule_id: SCHEDULE_ID,
    shift_id: { type: 'string', required: true, writable: false, filter: ['eq', 'in'], description: 'ID of the shift being covered (its id in /v1/shifts)' },
    original_shift_user_id: { type: 'integer', required: true, writable: false, filter: ['eq', 'in'], description: 'ID of the user whose shift is being covered' },
    created_by_user_id: { type: 'integer', required: true, writable: false, filter: ['eq', 'in'], description: 'ID of the user who created the coverage request' },
    starts_at: { type: 'date-time', required: true, writable: false, filter: ['gt', 'gte', 'lt', 'lte'], sortable: true, description: 'Start of the coverage request' },
    ends_at: { type: 'date-time', required: true, writable: false, filter: ['gt', 'gte', 'lt', 'lte'], sortable: true, description: 'End of the coverage request' },
    shift: { type: 'object', writable: false, description: 'The shift being covered, whole, as /v1/shifts answered it when the request was made' },
    schedule: { type: 'object', writable: false, description: 'The schedule, as a schedule_response document, kept with the request when it was made' },
    original_shift_user: { type: 'object', nullable: true, writable: false, description: `User whose shift is being covered, ${USER_DOCUMENT}` },
    created_by_user: { type: 'object', nullable: true, writable: false, description: `User who created the coverage request, ${USER_DOCUMENT}` },
  },
});

/**
 * The create's body (reference: `new_shift_coverage_request`): a range and, optionally, the user
 * whose shifts to cover. `schedule_id` names the schedule on `POST /v1/shift_coverage_requests`
 * (the spec's route without one in the path); under a schedule's path it may be left out.
 */
export const coverageRangeSchema = defineResource({
  type: 'shift_coverage_requests',
  singular: 'shift_coverage_request',
  path: '/v1/shift_coverage_requests',
  readTable: 'shift_coverage_requests_read',
  defaultSort: 'starts_at',
  operations: [],
  attributes: {
    schedule_id: { type: 'string', format: 'uuid', writable: 'create', description: 'The schedule; required on POST /v1/shift_coverage_requests, the path decides under a schedule' },
    starts_at: { type: 'date-time', required: true, writable: 'create', description: 'Start of the time range to request coverage for' },
    ends_at: { type: 'date-time', required: true, writable: 'create', description: 'End of the time range to request coverage for (after starts_at)' },
    user_id: { type: 'integer', writable: 'create', description: 'Optional. Restrict coverage to shifts assigned to this user. When omitted, every shift overlapping the time range is covered.' },
  },
});

export const shiftCoverageRequestDefinition: ResourceDefinition = {
  schema: shiftCoverageRequestSchema,
  context: 'on-call',
  table: 'shift_coverage_requests',
};
