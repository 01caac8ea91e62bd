import { incidentPostMortemDefinition } from './incident-post-mortems/incident-post-mortem.schema';
import { INCIDENT_POST_MORTEM_CONTROLLERS } from './incident-post-mortems/incident-post-mortems.controller';
import { UpdateIncidentPostMortemHandler } from './incident-post-mortems/update-incident-post-mortem';
import { incidentRetrospectiveStepDefinition } from './incident-retrospective-steps/incident-retrospective-step.schema';
import { postMortemTemplateDefinition } from './post-mortem-templates/post-mortem-template.schema';
import { retrospectiveConfigurationDefinition } from './retrospective-configurations/retrospective-configuration.schema';
import { retrospectiveProcessGroupStepDefinition } from './retrospective-process-group-steps/retrospective-process-group-step.schema';
import { retrospectiveProcessGroupDefinition } from './retrospective-process-groups/retrospective-process-group.schema';
import { CreateRetrospectiveProcessHandler } from './retrospective-processes/create-retrospective-process';
import { retrospectiveProcessDefinition } from './retrospective-processes/retrospective-process.schema';
import { retrospectiveStepDefinition } from './retrospective-steps/retrospective-step.schema';

export { RETROSPECTIVE_PROCESS_CONTROLLERS } from './retrospective-processes/retrospective-processes.controller';
export { seedRetrospectiveConfigurations } from './retrospective-configurations/built-in-retrospective-configurations';
export { incidentPostMortemDefinition, retrospectiveProcessDefinition };

/** Incidents' post mortems: read from a view (no projection), written by their own PUT (docs/retrospectives.md). */
export const RETROSPECTIVE_CONTROLLERS = [...INCIDENT_POST_MORTEM_CONTROLLERS];

/** The retrospectives family served by the generic controller (docs/retrospectives.md); processes have their own (copy_from). */
export const RETROSPECTIVE_RESOURCES = [
  retrospectiveStepDefinition,
  retrospectiveProcessGroupDefinition,
  retrospectiveProcessGroupStepDefinition,
  postMortemTemplateDefinition,
  retrospectiveConfigurationDefinition,
  incidentRetrospectiveStepDefinition,
];

export const RETROSPECTIVE_HANDLERS = [CreateRetrospectiveProcessHandler, UpdateIncidentPostMortemHandler];
