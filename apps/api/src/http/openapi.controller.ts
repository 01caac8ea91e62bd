import { Controller, Get } from '@nestjs/common';
import { Public } from '@taproot/auth';
import { CONTEXTS } from '@taproot/contexts';
import { buildOpenApiDocument } from '@taproot/json-api';

/** Every declared resource of the API, in the order the document lists them. */
export const API_RESOURCES = CONTEXTS.flatMap((context) => context.resources);

let cached: object | undefined;
/** Built once per process: the declarations do not change at run time. */
export function apiDocument(): object {
  cached ??= buildOpenApiDocument(
    API_RESOURCES,
    { title: 'Taproot API', version: '1.0.0' },
    {
      schemas: Object.assign({}, ...CONTEXTS.map((context) => context.openapi?.schemas ?? {})),
      paths: Object.assign({}, ...CONTEXTS.map((context) => context.openapi?.paths ?? {})),
    },
  );
  return cached;
}

/** The OpenAPI 3 document generated from the same declarations that serve the API. */
@Public()
@Controller('v1')
export class OpenApiController {
  @Get('openapi.json')
  document() {
    return apiDocument();
  }
}
