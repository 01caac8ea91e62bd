import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { CurrentCaller, RequirePermission, type Caller } from '@taproot/auth';
import { catalogIdsNamed, existingCatalogIds } from '@taproot/catalog';
import { CLOCK, type Clock } from '@taproot/config';
import { existingTeamIds } from '@taproot/identity';
import { incidentDowntime, INCIDENT_METRICS, type IncidentSubject } from '@taproot/incidents';
import { isUuid, JsonApiError } from '@taproot/json-api';
import { DataSource } from 'typeorm';
import { chartPeriod, chartPeriods, uptimeOf } from './chart-windows';

type Subject = { kind: 'services' | 'functionalities'; subject: IncidentSubject } | { kind: 'teams'; subject: IncidentSubject };

const SERVICES: Subject = { kind: 'services', subject: 'service_ids' };
const FUNCTIONALITIES: Subject = { kind: 'functionalities', subject: 'functionality_ids' };
const TEAMS: Subject = { kind: 'teams', subject: 'group_ids' };

/**
 * The charts of a service, functionality or team (docs/dashboards.md, "Charts"): its incidents per
 * period, and its uptime per period (the share of time no incident naming it was open). The counts
 * come from the incidents' ports; the record from its own context's (404 for another organization's).
 */
@Controller('v1')
export class ChartsController {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('services/:id/incidents_chart')
  @RequirePermission('services', 'read')
  serviceIncidents(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query('period') period: unknown) {
    return this.incidents(caller, SERVICES, id, period);
  }

  @Get('functionalities/:id/incidents_chart')
  @RequirePermission('functionalities', 'read')
  functionalityIncidents(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query('period') period: unknown) {
    return this.incidents(caller, FUNCTIONALITIES, id, period);
  }

  @Get('teams/:id/incidents_chart')
  @RequirePermission('groups', 'read')
  teamIncidents(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query('period') period: unknown) {
    return this.incidents(caller, TEAMS, id, period);
  }

  @Get('services/:id/uptime_chart')
  @RequirePermission('services', 'read')
  serviceUptime(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query('period') period: unknown) {
    return this.uptime(caller, SERVICES, id, period);
  }

  @Get('functionalities/:id/uptime_chart')
  @RequirePermission('functionalities', 'read')
  functionalityUptime(@CurrentCaller() caller: Caller, @Param('id') id: string, @Query('period') period: unknown) {
    return this.uptime(caller, FUNCTIONALITIES, id, period);
  }

  private async incidents(caller: Caller, of: Subject, raw: string, rawPeriod: unknown) {
    // Another organization's record is a 404 whatever else the request says.
    const id = await this.find(caller, of, raw);
    const period = chartPeriod(rawPeriod, 'day');
    const periods = chartPeriods(period, this.clock.now());
    const [series] = await INCIDENT_METRICS.count(this.dataSource, caller, {
      from: periods[0].from,
      to: this.clock.now(),
      period,
      timeZone: 'UTC',
      filter: [{ operation: 'and', rules: [{ key: of.subject, condition: '=', value: id }] }],
    });
    return { data: series?.values ?? {} };
  }

  private async uptime(caller: Caller, of: Subject, raw: string, rawPeriod: unknown) {
    const id = await this.find(caller, of, raw);
    const period = chartPeriod(rawPeriod, 'day');
    const now = this.clock.now();
    const periods = chartPeriods(period, now);
    const spans = await incidentDowntime(this.dataSource, caller, of.subject, id, periods[0].from, now);
    return { data: uptimeOf(periods, spans) };
  }

  /** The record the path names (its id; a service or functionality also by slug), in the caller's organization: 404 otherwise. */
  private async find(caller: Caller, of: Subject, raw: string): Promise<string> {
    const org = caller.organizationId;
    if (of.kind === 'teams') {
      if (isUuid(raw) && (await existingTeamIds(this.dataSource, org, [raw])).has(raw.toLowerCase())) return raw.toLowerCase();
    } else {
      if (isUuid(raw) && (await existingCatalogIds(this.dataSource, org, of.kind, [raw])).has(raw.toLowerCase())) return raw.toLowerCase();
      const [bySlug] = isUuid(raw) ? [] : await catalogIdsNamed(this.dataSource, org, of.kind, [raw], ['slug']);
      if (bySlug) return String(bySlug);
    }
    throw JsonApiError.notFound(of.kind, raw);
  }
}
