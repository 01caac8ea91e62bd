import type { ContextDescriptor } from '@taproot/runtime';
import { registerIncidentsEventContracts } from './event-contracts';
import { IncidentsModule, INCIDENTS_RESOURCES } from './incidents.module';
import { INCIDENTS_OPENAPI } from './incidents/incident.openapi';
import { INCIDENTS_MIGRATIONS } from './migrations';
import { INCIDENTS_ERRORS } from './errors';

export const INCIDENTS_CONTEXT: ContextDescriptor = {
  name: 'incidents',
  module: IncidentsModule,
  migrations: INCIDENTS_MIGRATIONS,
  resources: INCIDENTS_RESOURCES.map((d) => d.schema),
  openapi: INCIDENTS_OPENAPI,
  errors: INCIDENTS_ERRORS,
  registerEventContracts: () => registerIncidentsEventContracts(INCIDENTS_RESOURCES),
};
