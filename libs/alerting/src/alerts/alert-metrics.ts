import type { Caller } from '@taproot/auth';
import { countByPeriod, type PeriodCountsQuery, type Queryable } from '@taproot/json-api';
import { alertSchema } from './alert.schema';

/** Alerts as dashboards count them per period (docs/dashboards.md), from the alerts' read model. */
export const ALERT_METRICS = {
  schema: alertSchema,
  count: (db: Queryable, caller: Caller, q: PeriodCountsQuery) => countByPeriod(db, alertSchema, caller.organizationId, q),
};
