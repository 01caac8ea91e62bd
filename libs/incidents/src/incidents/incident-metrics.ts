import { can, type Caller } from '@taproot/auth';
import { countByPeriod, type PeriodCountsQuery, type Queryable } from '@taproot/json-api';
import { actionItemSchema } from '../action-items/action-item.schema';
import { incidentSchema } from './incident.schema';

/** Private incidents, and what lives under them, count only for callers who may read them (docs/incidents.md). */
const hidesPrivate = (caller: Caller) => !can(caller.permissions, 'private_incidents', 'read');

/**
 * The incidents context's records as dashboards count them per period (docs/dashboards.md): its
 * own read models, the caller's view of private incidents applied.
 */
export const INCIDENT_METRICS = {
  schema: incidentSchema,
  count: (db: Queryable, caller: Caller, q: PeriodCountsQuery) =>
    countByPeriod(db, incidentSchema, caller.organizationId, { ...q, scope: hidesPrivate(caller) ? () => ({ sql: 'NOT coalesce("private", false)', params: [] }) : undefined }),
};

export const ACTION_ITEM_METRICS = {
  schema: actionItemSchema,
  count: (db: Queryable, caller: Caller, q: PeriodCountsQuery) =>
    countByPeriod(db, actionItemSchema, caller.organizationId, {
      ...q,
      scope: hidesPrivate(caller) ? () => ({ sql: 'incident_id NOT IN (SELECT id FROM incidents_read WHERE organization_id = $1 AND "private")', params: [] }) : undefined,
    }),
};
