import { registerSnapshotEvents } from '@taproot/resources';
import type { ContextDescriptor } from '@taproot/runtime';
import { WORKFLOWS_ERRORS } from './errors';
import { WORKFLOWS_MIGRATIONS } from './migrations';
import { WorkflowsModule, WORKFLOWS_RESOURCES } from './workflows.module';

export const WORKFLOWS_CONTEXT: ContextDescriptor = {
  name: 'workflows',
  module: WorkflowsModule,
  migrations: WORKFLOWS_MIGRATIONS,
  resources: WORKFLOWS_RESOURCES.map((d) => d.schema),
  errors: WORKFLOWS_ERRORS,
  registerEventContracts() {
    WORKFLOWS_RESOURCES.forEach((d) => registerSnapshotEvents(d.schema));
  },
};
