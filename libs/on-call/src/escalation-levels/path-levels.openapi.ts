import { buildOpenApiDocument, collectionPath, type ResourceSchema } from '@taproot/json-api';
import { escalationLevelSchema } from './escalation-level.schema';

/**
 * The levels of a path (`PathLevelsController`): the level declaration's nested collection, with
 * the path as its parent, under the reference's operation ids. The level documents are the
 * generated ones of the declaration itself.
 */
function pathLevelsOpenApi() {
  const underPath: ResourceSchema = {
    ...escalationLevelSchema,
    parent: { ...escalationLevelSchema.parent!, path: '/v1/escalation_paths', param: 'escalation_policy_path_id' },
    operations: ['list', 'create'],
    operationIds: { list: 'listEscalationLevelsPaths', create: 'createEscalationLevelPaths' },
  };
  const collection = collectionPath(underPath);
  return { paths: { [collection]: buildOpenApiDocument([underPath], { title: 'path levels', version: '1' }).paths[collection] } };
}

export const PATH_LEVELS_OPENAPI = pathLevelsOpenApi();
