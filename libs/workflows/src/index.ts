export { WorkflowsModule, WORKFLOWS_RESOURCES } from './workflows.module';
export { WORKFLOWS_CONTEXT } from './workflows.context';
export { WORKFLOWS_MIGRATIONS } from './migrations';
