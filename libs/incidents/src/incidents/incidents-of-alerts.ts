import { Injectable } from '@nestjs/common';
import type { AlertIncidents } from '@taproot/alerting';
import { PermissionResolver, type Principal } from '@taproot/identity';
import type { ResourceObject } from '@taproot/json-api';
import { DataSource } from 'typeorm';
import { incidentAccess, seesPrivate } from './incident-access';
import { presentIncidents } from './incident-presenter';

/** The incidents alerts are attached to, as `include=incidents` on alerts shows them: only those the caller may see. */
@Injectable()
export class IncidentsOfAlerts implements AlertIncidents {
  private readonly resolver: PermissionResolver;
  constructor(private readonly dataSource: DataSource) {
    this.resolver = new PermissionResolver(dataSource);
  }

  async visibleIds(organizationId: string, principal: Principal | null, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const seesAll = principal !== null && seesPrivate(incidentAccess(principal, await this.resolver.resolve(principal)));
    const rows = (await this.dataSource.query(
      `SELECT id::text AS id FROM incidents_read WHERE organization_id = $1 AND id = ANY($2::uuid[])${seesAll ? '' : ' AND private IS NOT TRUE'}`,
      [organizationId, [...ids]],
    )) as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }

  async visible(principal: Principal, ids: readonly string[]): Promise<ResourceObject[]> {
    if (ids.length === 0) return [];
    const access = incidentAccess(principal, await this.resolver.resolve(principal));
    const rows = await this.dataSource.query(
      `SELECT * FROM incidents_read WHERE organization_id = $1 AND id = ANY($2::uuid[])${seesPrivate(access) ? '' : ' AND private IS NOT TRUE'} ORDER BY sequential_id`,
      [principal.organizationId, [...ids]],
    );
    return presentIncidents(this.dataSource, principal.organizationId, rows);
  }
}
