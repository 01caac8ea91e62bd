import { Injectable } from '@nestjs/common';
import type { AlertIncidents } from '@taproot/alerting';
import type { Caller } from '@taproot/auth';
import type { Queryable, ResourceObject } from '@taproot/json-api';
import { DataSource } from 'typeorm';
import { incidentAccess, seesPrivate, type IncidentAccess } from './incident-access';
import { presentIncidents } from './incident-presenter';

/** The organization's incidents with these ids, private ones only when `seesAll`. */
async function visibleRows(db: Queryable, organizationId: string, ids: readonly string[], seesAll: boolean, columns: string): Promise<Record<string, unknown>[]> {
  return (await db.query(`SELECT ${columns} FROM incidents_read WHERE organization_id = $1 AND id = ANY($2::uuid[])${seesAll ? '' : ' AND private IS NOT TRUE'} ORDER BY sequential_id`, [
    organizationId,
    [...ids],
  ])) as Record<string, unknown>[];
}

/** `AlertIncidents` for a caller whose permissions are already resolved (the incident routes' `access`). */
export function incidentsSeenWith(db: Queryable, access: IncidentAccess | null): AlertIncidents {
  const seesAll = access !== null && seesPrivate(access);
  return {
    async visibleIds(organizationId, _principal, ids) {
      if (ids.length === 0) return new Set();
      return new Set((await visibleRows(db, organizationId, ids, seesAll, 'id::text AS id')).map((r) => String(r.id)));
    },
    async visible(principal, ids) {
      if (ids.length === 0) return [];
      return presentIncidents(db, principal.organizationId, await visibleRows(db, principal.organizationId, ids, seesAll, '*'));
    },
  };
}

/** The incidents alerts are attached to, as `include=incidents` on alerts shows them: only those the caller may see. */
@Injectable()
export class IncidentsOfAlerts implements AlertIncidents {
  constructor(private readonly dataSource: DataSource) {}

  private seenBy(caller: Caller | null): AlertIncidents {
    return incidentsSeenWith(this.dataSource, caller === null ? null : incidentAccess(caller));
  }

  async visibleIds(organizationId: string, principal: Caller | null, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    return this.seenBy(principal).visibleIds(organizationId, principal, ids);
  }

  async visible(principal: Caller, ids: readonly string[]): Promise<ResourceObject[]> {
    if (ids.length === 0) return [];
    return this.seenBy(principal).visible(principal, ids);
  }
}
