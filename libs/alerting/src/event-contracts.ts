import { registerSnapshotEvents } from '@taproot/resources';
import { alertFieldDefinition } from './alert-fields/alert-field.schema';
import { alertSourceDefinition } from './alert-sources/alert-source.schema';
import { alertUrgencyDefinition } from './alert-urgencies/alert-urgency.schema';
import { alertEventDefinition } from './alerts/alert-event.schema';
import { alertDefinition } from './alerts/alert.schema';

import { ALERT_EVENTS } from './events';

/** The payload contracts consumers fed from Kafka hold alerting's events to. */
export function registerAlertingEventContracts(): void {
  registerSnapshotEvents(alertDefinition.schema, Object.values(ALERT_EVENTS));
  for (const definition of [alertUrgencyDefinition, alertFieldDefinition, alertSourceDefinition, alertEventDefinition]) registerSnapshotEvents(definition.schema);
}
