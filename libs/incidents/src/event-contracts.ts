import { registerEventContract } from '@taproot/messaging';
import { registerSnapshotEvents, type ResourceDefinition } from '@taproot/resources';
import { INCIDENT_EVENTS, INCIDENT_IMPORT_COMPLETED } from './events';
import { INCIDENT_STATUSES } from './incidents/incident.state';
import { incidentDefinition } from './incidents/incident.schema';
import { pulseSchema } from './pulses/pulses';
import { incidentEventDefinition } from './timeline/incident-event.schema';

/** The payload contracts consumers fed from Kafka hold the incidents context's events to. */
export function registerIncidentsEventContracts(resources: readonly ResourceDefinition[]): void {
  registerSnapshotEvents(incidentDefinition.schema, [...Object.values(INCIDENT_EVENTS), ...INCIDENT_STATUSES.map((s) => `incident.${s}`)]);
  for (const definition of [...resources, incidentEventDefinition]) registerSnapshotEvents(definition.schema);
  // Pulses' events carry the pulse as the API answers it, its embedded records included.
  registerSnapshotEvents(pulseSchema);
  registerEventContract(INCIDENT_IMPORT_COMPLETED, 1, (payload) =>
    typeof payload.id === 'string' && Array.isArray(payload.incidents) && payload.incidents.every((i) => typeof (i as { id?: unknown })?.id === 'string')
      ? null
      : 'expected { id, incidents: [{ id, sequential_id, external_id }] }',
  );
}
