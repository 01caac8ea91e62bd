import { registerSnapshotEvents } from '@taproot/resources';
import type { ContextDescriptor } from '@taproot/runtime';
import { ON_CALL_ERRORS } from './errors';
import { ON_CALL_MIGRATIONS } from './migrations';
import { OnCallModule, ON_CALL_RESOURCES } from './on-call.module';
import { SHIFTS_OPENAPI } from './shifts/shifts.openapi';

export const ON_CALL_CONTEXT: ContextDescriptor = {
  name: 'on-call',
  module: OnCallModule,
  migrations: ON_CALL_MIGRATIONS,
  resources: ON_CALL_RESOURCES.map((d) => d.schema),
  errors: ON_CALL_ERRORS,
  openapi: SHIFTS_OPENAPI,
  // Each schedule resource publishes its lifecycle events (`schedule.created`, ...), each carrying the record's snapshot.
  registerEventContracts: () => ON_CALL_RESOURCES.forEach((d) => registerSnapshotEvents(d.schema)),
};
