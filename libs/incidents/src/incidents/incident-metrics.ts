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

/** What an incident is about, by the list naming it: the chart routes of services, functionalities and teams. */
export type IncidentSubject = 'service_ids' | 'functionality_ids' | 'group_ids';

/**
 * The spans during which incidents naming `id` in `subject` were open (started, not yet resolved,
 * mitigated or cancelled), clipped to the window, for uptime: the caller's view of private incidents
 * applied.
 */
export async function incidentDowntime(db: Queryable, caller: Caller, subject: IncidentSubject, id: string, from: Date, to: Date): Promise<{ from: Date; to: Date }[]> {
  const rows = (await db.query(
    `SELECT greatest(started_at, $3) AS "from", least(coalesce(resolved_at, mitigated_at, cancelled_at, $4), $4) AS "to"
       FROM incidents_read
      WHERE organization_id = $1 AND $2 = ANY(${subject}) AND started_at IS NOT NULL AND started_at < $4
        AND coalesce(resolved_at, mitigated_at, cancelled_at, $4) > $3${hidesPrivate(caller) ? ' AND NOT coalesce("private", false)' : ''}`,
    [caller.organizationId, id, from, to],
  )) as { from: Date; to: Date }[];
  return rows.filter((r) => r.to > r.from);
}
