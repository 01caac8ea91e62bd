import { CreateWorkflows1732300010300 } from './1732300010300-create-workflows';

export const WORKFLOWS_MIGRATIONS = [CreateWorkflows1732300010300];
