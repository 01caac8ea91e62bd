import { buildOpenApiDocument } from '@taproot/json-api';
import { pulseListSchema, pulseSchema } from './pulse.schema';

type Operation = { parameters: unknown[] };

/**
 * What `/v1/openapi.json` says of pulses: the paths and schemas generated from the answer's
 * declaration, the list's parameters from its query declaration (the services, environments,
 * labels and refs filters).
 */
function pulsesOpenApi() {
  const { components, paths } = buildOpenApiDocument([pulseSchema], { title: 'pulses', version: '1' });
  const listed = buildOpenApiDocument([pulseListSchema], { title: 'pulse list', version: '1' }).paths[pulseSchema.path].get as Operation;
  (paths[pulseSchema.path].get as Operation).parameters = listed.parameters;
  return { schemas: components.schemas, paths };
}

export const PULSES_OPENAPI = pulsesOpenApi();
