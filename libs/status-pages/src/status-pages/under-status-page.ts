import type { AttributeDef, ParentDef } from '@taproot/json-api';
import type { ResourceDefinition } from '@taproot/resources';

/** The records of a status page: their collection is served under `/v1/status-pages/{status_page_id}`. */
export const UNDER_STATUS_PAGE: ParentDef = { path: '/v1/status-pages', param: 'status_page_id', attribute: 'status_page_id', table: 'status_pages', onParentDelete: 'cascade' };

/** A record's page: named by the path on create, never changed. */
export const STATUS_PAGE_ID: AttributeDef = { type: 'string', format: 'uuid', writable: 'create', description: 'ID of the status page (the path decides)' };

/** Left out (or null), the record goes last among its page's; the platform assigns it. */
export const POSITION: AttributeDef = { type: 'integer', nullable: true, alwaysStored: true, minimum: 0, maximum: 2147483647, sortable: true };

/**
 * Read with `status_pages` read; every write is an edit of the page (`status_pages` update), as
 * an incident's records are written with `incidents` update.
 */
export const STATUS_PAGE_CHILD_PERMISSION: ResourceDefinition['permission'] = { family: 'status_pages', writes: 'update' };
