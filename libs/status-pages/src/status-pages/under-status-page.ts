import type { AttributeDef, ParentDef } from '@taproot/json-api';

/** The records of a status page: their collection is served under `/v1/status-pages/{status_page_id}`. */
export const UNDER_STATUS_PAGE: ParentDef = { path: '/v1/status-pages', param: 'status_page_id', attribute: 'status_page_id', table: 'status_pages' };

/** A record's page: named by the path on create, never changed. */
export const STATUS_PAGE_ID: AttributeDef = { type: 'string', format: 'uuid', writable: 'create', description: 'The status page of the record (the path decides)' };
