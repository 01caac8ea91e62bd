import { registerOrganizationSeeder } from '@taproot/identity';
import type { ContextDescriptor } from '@taproot/runtime';
import { registerIncidentsEventContracts } from './event-contracts';
import { FORMS_OPENAPI } from './forms';
import { IncidentsModule, INCIDENTS_RESOURCES } from './incidents.module';
import { INCIDENTS_OPENAPI } from './incidents/incident.openapi';
import { INCIDENTS_MIGRATIONS } from './migrations';
import { INCIDENTS_ERRORS } from './errors';
import { meetingRecordingDefinition, MEETING_RECORDINGS_OPENAPI } from './meeting-recordings/meeting-recordings';
import { PULSES_OPENAPI } from './pulses/pulses';
import { incidentPostMortemDefinition, retrospectiveProcessDefinition, seedRetrospectiveConfigurations } from './retrospectives/retrospectives';

// Every new organization has its two retrospective configurations from the start (docs/retrospectives.md).
registerOrganizationSeeder((manager, organizationId) => seedRetrospectiveConfigurations(manager, [organizationId], new Date()));

export const INCIDENTS_CONTEXT: ContextDescriptor = {
  name: 'incidents',
  module: IncidentsModule,
  migrations: INCIDENTS_MIGRATIONS,
  resources: [...INCIDENTS_RESOURCES, retrospectiveProcessDefinition, meetingRecordingDefinition, incidentPostMortemDefinition].map((d) => d.schema),
  // The deprecated custom field operations are marked so (forms/index.ts).
  openapi: {
    ...INCIDENTS_OPENAPI,
    schemas: { ...INCIDENTS_OPENAPI.schemas, ...MEETING_RECORDINGS_OPENAPI.schemas, ...PULSES_OPENAPI.schemas },
    paths: { ...INCIDENTS_OPENAPI.paths, ...FORMS_OPENAPI.paths, ...MEETING_RECORDINGS_OPENAPI.paths, ...PULSES_OPENAPI.paths },
  },
  errors: INCIDENTS_ERRORS,
  registerEventContracts: () => registerIncidentsEventContracts([...INCIDENTS_RESOURCES, retrospectiveProcessDefinition, meetingRecordingDefinition, incidentPostMortemDefinition]),
};
