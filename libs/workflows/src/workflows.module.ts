import { Module, type OnModuleInit } from '@nestjs/common';
import { ProjectionRunner } from '@taproot/messaging';
import { resourceController, ResourceListProjection } from '@taproot/resources';
import { workflowCustomFieldSelectionDefinition } from './conditions/custom-field-selections';
import { workflowActionItemFormFieldConditionDefinition, workflowFormFieldConditionDefinition } from './conditions/form-field-conditions';
import { workflowGroupDefinition } from './workflow-groups/workflow-group.schema';
import { workflowRunDefinition } from './workflow-runs/workflow-run.schema';
import { WorkflowRunsController } from './workflow-runs/workflow-runs.controller';
import { workflowTaskDefinition } from './workflow-tasks/workflow-task.schema';
import { workflowDefinition } from './workflows/workflow.schema';

export const WORKFLOWS_RESOURCES = [
  workflowDefinition,
  workflowGroupDefinition,
  workflowTaskDefinition,
  workflowRunDefinition,
  workflowFormFieldConditionDefinition,
  workflowCustomFieldSelectionDefinition,
  workflowActionItemFormFieldConditionDefinition,
];

/** The workflows context: workflows, their groups, tasks, runs and conditions, stored and answered; none executes (docs/workflows.md). */
@Module({ controllers: [...WORKFLOWS_RESOURCES.filter((d) => d !== workflowRunDefinition).map((d) => resourceController(d)), WorkflowRunsController] })
export class WorkflowsModule implements OnModuleInit {
  constructor(private readonly projections: ProjectionRunner) {}

  onModuleInit(): void {
    for (const definition of WORKFLOWS_RESOURCES) this.projections.inline(new ResourceListProjection(definition));
  }
}
