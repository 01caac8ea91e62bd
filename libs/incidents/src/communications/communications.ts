import { communicationsGroupDefinition } from './communications-group.schema';
import { communicationsStageDefinition } from './communications-stage.schema';
import { communicationsTemplateDefinition } from './communications-template.schema';
import { communicationsTypeDefinition } from './communications-type.schema';

/**
 * Incident communications' settings (docs/communications.md): types, stages, templates and
 * groups, stored and answered; Taproot sends nothing. Registered with the incidents context.
 */
export const COMMUNICATIONS_RESOURCES = [communicationsTypeDefinition, communicationsStageDefinition, communicationsTemplateDefinition, communicationsGroupDefinition];
