import { playbookTaskDefinition } from './playbook-task.schema';
import { playbookDefinition } from './playbook.schema';

/** Playbooks and their tasks (docs/playbooks.md), registered with the incidents context's resources. */
export const PLAYBOOK_RESOURCES = [playbookDefinition, playbookTaskDefinition];
