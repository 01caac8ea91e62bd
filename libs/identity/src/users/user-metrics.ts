import type { Caller } from '@taproot/auth';
import { countByPeriod, type PeriodCountsQuery, type Queryable } from '@taproot/json-api';
import { userSchema } from './user.schema';

/** The organization's users as dashboards count them per period (docs/dashboards.md), by when they joined. */
export const USER_METRICS = {
  schema: userSchema,
  count: (db: Queryable, caller: Caller, q: PeriodCountsQuery) => countByPeriod(db, userSchema, caller.organizationId, q),
};
