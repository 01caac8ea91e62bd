import { Controller, Get } from '@nestjs/common';
import { CATALOG_RESOURCES } from '@taproot/catalog';
import { Public } from '@taproot/identity';
import { buildOpenApiDocument } from '@taproot/json-api';

/** Every declared resource of the API, in the order the document lists them. */
export const API_RESOURCES = [...CATALOG_RESOURCES];

let cached: object | undefined;
/** Built once per process: the declarations do not change at run time. */
export function apiDocument(): object {
  cached ??= buildOpenApiDocument(
    API_RESOURCES.map((d) => d.schema),
    { title: 'Taproot API', version: '1.0.0' },
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
